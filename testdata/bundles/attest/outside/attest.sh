#!/bin/sh
# Lives outside the bundle: okf refuses to run it unless --allow-outside.
cat >/dev/null
echo '{"ok": true, "reason": null, "details": {"where": "outside the bundle"}}'
