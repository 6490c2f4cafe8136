#!/bin/sh
# An executable attester (D18): the request JSON arrives on stdin, the verdict leaves on stdout.
# It checks only that the receipt names its run; the built-in attester does the SQL comparison.
req=$(cat)
case "$req" in
*'"run_id":"'*)
  echo '{"ok": true, "reason": null, "details": {"checked": "receipt carries a run_id"}}' ;;
*)
  echo '{"ok": false, "reason": "the receipt carries no run_id", "details": {}}' ;;
esac
