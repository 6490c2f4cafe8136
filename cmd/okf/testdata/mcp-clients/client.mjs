// A real MCP client against okf serve, for cmd/okf/serve_clients_test.go: the TypeScript SDK's
// newest major (@modelcontextprotocol/client, v2) or the Vercel AI SDK's MCP client (@ai-sdk/mcp),
// over stdio or Streamable HTTP, in the era asked for. It lists the tools, searches "KV cache",
// reads the first hit and reads it as a resource, and prints what it got as one JSON line.
//
// node client.mjs ts|ai legacy|modern|auto stdio COMMAND ARGS...
// node client.mjs ts|ai legacy|modern|auto http URL
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [kind, era, transport, ...target] = process.argv.slice(2);
// The packages are installed outside the repository (OKF_MCP_CLIENTS): load them from there.
const req = createRequire(path.join(process.env.OKF_MCP_CLIENTS, "package.json"));
const load = (spec) => import(pathToFileURL(req.resolve(spec)).href);
const textOf = (res) => (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");

async function viaTS() {
  const { Client, StreamableHTTPClientTransport } = await load("@modelcontextprotocol/client");
  const { StdioClientTransport } = await load("@modelcontextprotocol/client/stdio");
  const versionNegotiation = era === "legacy" ? { mode: "legacy" } : era === "modern" ? { mode: { pin: "2026-07-28" } } : { mode: "auto" };
  const client = new Client({ name: "okf-test", version: "1" }, { versionNegotiation });
  const t = transport === "stdio"
    ? new StdioClientTransport({ command: target[0], args: target.slice(1), stderr: "ignore" })
    : new StreamableHTTPClientTransport(new URL(target[0]));
  await client.connect(t);
  const out = { protocolVersion: client.getNegotiatedProtocolVersion?.() ?? null };
  out.caps = client.getServerCapabilities();
  out.tools = (await client.listTools()).tools.map((x) => x.name).sort();
  const s = await client.callTool({ name: "search", arguments: { query: "KV cache" } });
  out.hits = (s.structuredContent?.hits ?? []).map((h) => h.id);
  const r = await client.callTool({ name: "read", arguments: { id: out.hits[0] } });
  out.read = textOf(r).split("\n")[0];
  const bad = await client.callTool({ name: "search", arguments: { query: "x", k: 1000 } });
  out.badK = textOf(bad);
  const rr = await client.readResource({ uri: "okf://" + out.hits[0] });
  out.resource = rr.contents[0].text.slice(0, 200);
  out.ttlMs = rr.ttlMs ?? null;
  out.resources = (await client.listResources()).resources.length;
  await client.close();
  return out;
}

async function viaAI() {
  const { createMCPClient } = await load("@ai-sdk/mcp");
  let t;
  if (transport === "stdio") {
    const { StdioMCPTransport } = await load("@ai-sdk/mcp/mcp-stdio");
    t = new StdioMCPTransport({ command: target[0], args: target.slice(1), stderr: "ignore" });
  } else {
    t = { type: "http", url: target[0] };
  }
  const client = await createMCPClient({ transport: t, protocolVersionDiscovery: era !== "legacy" });
  const out = {};
  const tools = await client.tools();
  out.tools = Object.keys(tools).sort();
  const s = await client.callTool({ name: "search", arguments: { query: "KV cache" } });
  out.hits = (s.structuredContent?.hits ?? []).map((h) => h.id);
  const r = await client.callTool({ name: "read", arguments: { id: out.hits[0] } });
  out.read = textOf(r).split("\n")[0];
  const rr = await client.readResource({ uri: "okf://" + out.hits[0] });
  out.resource = rr.contents[0].text.slice(0, 200);
  out.resources = (await client.listResources()).resources.length;
  await client.close();
  return out;
}

try {
  const out = kind === "ts" ? await viaTS() : await viaAI();
  process.stdout.write(JSON.stringify(out) + "\n");
  process.exit(0);
} catch (e) {
  process.stderr.write(String(e?.stack ?? e) + "\n");
  process.exit(1);
}
