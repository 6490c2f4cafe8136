#!/bin/sh
cat >/dev/null
echo '{"ok": true, "reason": null, "details": {}}'
echo "attester: cannot reach the audit log" >&2
exit 3
