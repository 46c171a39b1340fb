# Sourced by ./mvnw and ./scrapy-cluster: makes JAVA_HOME point at a JDK 21 or newer.
#
# JAVA_HOME wins when it already is one; otherwise the newest JDK found in the usual places
# (the java on PATH, /usr/lib/jvm, /opt/java, SDKMAN, macOS) is taken. When none is found
# it says what it looked at and exits.

sc_jdk_major() {
  # The major version of the JDK at $1, or nothing when $1 is not a JDK.
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -f "$1/release" ]; then
    sc_v=$(sed -n 's/^JAVA_VERSION="\([0-9.]*\).*/\1/p' "$1/release")
  else
    sc_v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9.]*\).*/\1/p' | head -n 1)
  fi
  case "$sc_v" in
    1.*) echo "$sc_v" | cut -d. -f2 ;;
    *) echo "$sc_v" | cut -d. -f1 ;;
  esac
}

sc_select_jdk() {
  # ./mvnw runs with globbing off (set -f); the search below needs it.
  case $- in *f*) sc_noglob=1; set +f ;; *) sc_noglob= ;; esac
  sc_best_home=
  sc_best_major=0
  sc_path_java=$(command -v java 2>/dev/null || true)
  [ -n "$sc_path_java" ] && sc_path_java=$(dirname "$(dirname "$(readlink -f "$sc_path_java")")")
  for sc_home in "${JAVA_HOME-}" "$sc_path_java" /usr/lib/jvm/* /opt/java/* /opt/jdk* \
      "${HOME-}"/.sdkman/candidates/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -n "$sc_home" ] && [ -d "$sc_home" ] || continue
    sc_major=$(sc_jdk_major "$sc_home")
    [ -n "$sc_major" ] || continue
    if [ "$sc_home" = "${JAVA_HOME-}" ] && [ "$sc_major" -ge 21 ]; then
      sc_best_home=$sc_home
      sc_best_major=$sc_major
      break
    fi
    if [ "$sc_major" -gt "$sc_best_major" ]; then
      sc_best_home=$sc_home
      sc_best_major=$sc_major
    fi
  done
  [ -n "$sc_noglob" ] && set -f
  if [ "$sc_best_major" -lt 21 ]; then
    echo "Scrapy Cluster for Java needs a JDK 21 or newer, and found none." >&2
    echo "Looked at JAVA_HOME (${JAVA_HOME:-unset}), the java on PATH, /usr/lib/jvm, /opt/java, SDKMAN and macOS JDKs." >&2
    [ -n "$sc_best_home" ] && echo "The newest found is JDK $sc_best_major at $sc_best_home." >&2
    echo "Install one (for example Temurin 21 or 25, or 'apt-get install openjdk-21-jdk') or set JAVA_HOME to it." >&2
    exit 1
  fi
  JAVA_HOME=$sc_best_home
  export JAVA_HOME
  # Maven's own libraries use sun.misc.Unsafe; JDK 24+ warns about it unless told otherwise,
  # and JDK 17 refuses the flag, so it is added only here, once the JDK is known.
  if [ "$sc_best_major" -ge 24 ]; then
    case "${MAVEN_OPTS-}" in
      *sun-misc-unsafe-memory-access*) ;;
      *) MAVEN_OPTS="${MAVEN_OPTS-} --sun-misc-unsafe-memory-access=allow"; export MAVEN_OPTS ;;
    esac
  fi
}

sc_select_jdk
