#!/usr/bin/env bash
# The Java and Python clients' tests (client-java/, client-python/) build with the JDK and Debian's Jackson jars and
# type-check with Debian's mypy: no Maven repository or PyPI is reachable here. apt is skipped when all are present.
set -euo pipefail
if command -v javac >/dev/null && [ -f /usr/share/java/jackson-databind.jar ] && /usr/bin/python3 -m mypy --version >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless libjackson2-databind-java python3-mypy >/dev/null
else
  echo "The Java or Python client's toolchain is missing. Install it with: sudo apt-get install -y --no-install-recommends openjdk-17-jdk-headless libjackson2-databind-java python3-mypy" >&2
  exit 1
fi
