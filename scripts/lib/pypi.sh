# Shared by the test scripts that fetch pinned data packages from PyPI (make test-l2,
# make test-largecaps). Source it; it defines functions only.

# ensure_python_pip: installs python3 and pip with apt-get (update first; sudo when not root)
# when either is missing, so the scripts work on a fresh Debian machine.
ensure_python_pip() {
  if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then return; fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq python3 python3-pip >/dev/null
}

# fetch_pinned_wheel PACKAGE VERSION WHEEL SHA256 CACHE [NOTE]: prints the path of
# CACHE/WHEEL, downloading PACKAGE==VERSION with pip (no dependencies, binary only) when the
# cached file is missing or its SHA-256 is not SHA256. NOTE, when given, is said after a failed
# download. Exits 3 when the download fails (offline, or the registry is unreachable) and 4
# when the downloaded wheel does not have the expected SHA-256. Uses $PYTHON (default python3).
fetch_pinned_wheel() {
  local package="$1" version="$2" name="$3" sha256="$4" cache="$5" note="${6:-}"
  local wheel="$cache/$name" python="${PYTHON:-python3}"
  mkdir -p "$cache"
  if [[ -f "$wheel" && "$(sha256sum "$wheel" | cut -d' ' -f1)" == "$sha256" ]]; then
    echo "$wheel"
    return 0
  fi
  rm -f "$wheel"
  local tmp
  tmp="$(mktemp -d "$cache/download.XXXXXX")"
  # A subshell, so its EXIT trap removes the download folder however it ends.
  (
    trap 'rm -rf "$tmp"' EXIT
    if ! "$python" -m pip download --no-deps --only-binary=:all: --disable-pip-version-check \
            --no-cache-dir --timeout 30 --retries 1 -d "$tmp" "${package}==${version}" >"$tmp/pip.log" 2>&1; then
      echo "error: could not download ${package}==${version} from PyPI (offline, or the registry is unreachable)." >&2
      if [[ -n "$note" ]]; then echo "       $note" >&2; fi
      echo "       pip said:" >&2
      tail -n 5 "$tmp/pip.log" | sed 's/^/       /' >&2
      exit 3
    fi
    if [[ ! -f "$tmp/$name" ]]; then
      echo "error: pip did not produce $name (got: $(ls "$tmp" | tr '\n' ' '))" >&2
      exit 3
    fi
    local got
    got="$(sha256sum "$tmp/$name" | cut -d' ' -f1)"
    if [[ "$got" != "$sha256" ]]; then
      echo "error: $name has SHA-256 $got, expected $sha256; refusing to use it." >&2
      exit 4
    fi
    mv "$tmp/$name" "$wheel"
  ) || exit $?
  echo "$wheel"
}
