#!/bin/sh
# A bot that answers every decision with a line that isn't JSON.
while read -r line; do
  case "$line" in
    *'"decide"'*) echo "bullshit!" ;;
  esac
done
