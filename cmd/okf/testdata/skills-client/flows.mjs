// The skills extension's discovery and load flows against okf serve, through the extension's own
// client SDK (@olaservo/ext-skills/client) on the MCP TypeScript client. Usage:
//   node flows.mjs legacy|modern stdio OKF BUNDLE    (starts "OKF serve --no-watch BUNDLE")
//   node flows.mjs legacy|modern http URL
// Prints one line per step; exits 1 at the first step that fails.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  serverSupportsSkills,
  listSkills,
  getSkill,
  checkSkillLimits,
  manifestOf,
  readSkill,
  readSkillResource,
} from "@olaservo/ext-skills/client";

const [era, how, ...rest] = process.argv.slice(2);
const transport =
  how === "stdio"
    ? new StdioClientTransport({ command: rest[0], args: ["serve", "--no-watch", rest[1]], stderr: "ignore" })
    : new StreamableHTTPClientTransport(new URL(rest[0]));
const client = new Client(
  { name: "okf-skills-flows", version: "1" },
  {
    ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
  },
);

function fail(step, err) {
  console.log(`FAIL ${step}: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}

async function rejects(step, fn) {
  try {
    await fn();
  } catch (err) {
    console.log(`ok ${step}: refused (${err instanceof Error ? err.message.slice(0, 120) : err})`);
    return;
  }
  fail(step, "accepted");
}

try {
  await client.connect(transport);
} catch (err) {
  fail("connect", err);
}
console.log(`ok connect: ${client.getNegotiatedProtocolVersion?.() ?? "?"}`);
try {
  if (!serverSupportsSkills(client)) fail("capability", "no io.modelcontextprotocol/skills extension declared");
  console.log("ok capability");
  // Discovery: the listing, its one entry, within the limits.
  const skills = await listSkills(client);
  if (skills.length !== 1) fail("skills/list", `${skills.length} skills`);
  const entry = skills[0];
  const limits = checkSkillLimits(entry);
  if (!limits.withinLimits) fail("limits", limits.exceeded.join(", "));
  const files = manifestOf(entry) ?? [];
  console.log(`ok skills/list: ${entry.uri} ${entry.frontmatter.name} ${files.length} files`);
  const again = await getSkill(client, entry.uri);
  if (JSON.stringify(again) !== JSON.stringify(entry)) fail("skills/get", "differs from the listing");
  console.log("ok skills/get");
  await rejects("skills/get unknown", () => getSkill(client, "skill://no-such-skill/SKILL.md"));
  // Load: SKILL.md verified (digest, size, frontmatter identity), then every file of the manifest.
  const body = await readSkill(client, entry);
  if (!body.includes("bundle/")) fail("readSkill", "SKILL.md does not point to bundle/");
  console.log("ok readSkill");
  for (const f of files) {
    if (f.uri === entry.uri) continue;
    await readSkillResource(client, entry, f.uri);
  }
  console.log(`ok readSkillResource: ${files.length - 1} files verified`);
  await rejects("unlisted file", () => readSkillResource(client, entry, entry.uri.replace(/SKILL\.md$/, "bundle/never-listed.md")));
} catch (err) {
  fail("flow", err);
} finally {
  await client.close();
}
console.log("PASS");
