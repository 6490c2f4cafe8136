#!/bin/sh
cat >/dev/null
echo "verdict: looks fine to me"
