#!/usr/bin/env bash
# Compiles the client and its tests with the JDK and Debian's Jackson jars (no Maven repository is needed):
#   bash client-java/build.sh <out dir>   then   java -cp "<out dir>:$(bash client-java/build.sh --classpath)" ...
set -euo pipefail
JARS=/usr/share/java/jackson-databind.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-annotations.jar
if [ "${1:-}" = "--classpath" ]; then echo "$JARS"; exit 0; fi
cd "$(dirname "$0")"
javac --release 17 -Xlint:all,-serial -Werror -encoding UTF-8 -d "$1" -cp "$JARS" $(find src -name '*.java')
