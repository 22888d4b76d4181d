#!/bin/sh
# A bot that thinks far too long before letting anything go.
while read -r line; do
  case "$line" in
    *'"decide"'*) sleep 3; echo '{"cmd":"pass"}' ;;
  esac
done
