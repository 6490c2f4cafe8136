package serve

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Caps hold for the whole answer as written on the wire, not its parts: a tool's answer carries its
// output twice (structuredContent, and the same JSON as text, or read's text beside its structured
// copy), and JSON writes some bytes as six ('<' is \u003c, a control character \u0001). So each
// tool measures what it is about to send and sheds what does not fit, saying so.

// envelope is what the budget keeps for the JSON-RPC envelope around a result (jsonrpc, a short
// id, result, isError, _meta): the answer proper gets the rest. A client's own id, however long,
// is echoed on top.
const envelope = 1 << 10

// answerBudget is what a tool's answer may hold.
const answerBudget = maxAnswerBytes - envelope

// jsonSize is the length of v as JSON.
func jsonSize(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// toolSize is the size of the answer the SDK makes of a tool's structured output out (with no
// content of the handler's own): out as structuredContent, and out's JSON again as a text content.
func toolSize(out any) int {
	b, err := json.Marshal(out)
	if err != nil {
		return 0
	}
	return len(b) + jsonStringSize(string(b)) + len(`{"content":[{"type":"text","text":}],"structuredContent":}`)
}

// readSize is the size of read's answer: its content and its structured copy.
func readSize(content []mcp.Content, out ReadOut) int {
	return jsonSize(content) + jsonSize(out) + len(`{"content":,"structuredContent":}`)
}

// jsonStringSize is the length of s written as a JSON string by encoding/json (HTML-safe, as the
// SDK writes it): quotes and backslashes and \n \r \t take two bytes, other control characters, < >
// &, U+2028, U+2029 and each invalid byte six.
func jsonStringSize[T string | []byte](s T) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// fitCount returns how many of n items fit: the largest k ≤ n with fits(k), fits being monotone
// (fits(0) is assumed).
func fitCount(n int, fits func(k int) bool) int {
	lo, hi := 0, n // fits(lo); the answer is in [lo, hi]
	if fits(n) {
		return n
	}
	hi = n - 1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func leftOut(n int, what string) string {
	return fmt.Sprintf("%d %s left out: an answer is capped at %d bytes", n, what, maxAnswerBytes)
}
