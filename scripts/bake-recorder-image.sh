#!/bin/bash
# Prepares a stock Debian or Ubuntu machine to become a recorder image (AMI): ffmpeg, Node 22, yt-dlp
# and the recorder runtime in /opt/capture-recorder, so instances booted from it install nothing.
#
#   npm run build        # on a checkout of this repository: build/recorder/recorder.mjs (and its .sha256)
#   scp build/recorder/recorder.mjs scripts/bake-recorder-image.sh admin@<instance>:
#   ssh admin@<instance> sudo bash bake-recorder-image.sh recorder.mjs
#   then create the image from the instance (AMI Manager in the console, or `aws ec2 create-image`).
#
# Run as root. RUNTIME_DIR and NODE_VERSION may be overridden.
set -euo pipefail
RUNTIME_DIR=${RUNTIME_DIR:-/opt/capture-recorder}
NODE_VERSION=${NODE_VERSION:-22.23.3}
bundle=${1:?usage: bake-recorder-image.sh <recorder.mjs>}
arch=$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q ffmpeg curl ca-certificates

mkdir -p "$RUNTIME_DIR/node" "$RUNTIME_DIR/bin"
# nodejs.org, else (a subnet that reaches only package registries) the npm registry's build of the same Node.
curl -fsSL "https://nodejs.org/dist/v$NODE_VERSION/node-v$NODE_VERSION-linux-$arch.tar.gz" | tar -xz -C "$RUNTIME_DIR/node" --strip-components=1 ||
  curl -fsSL "https://registry.npmjs.org/node-linux-$arch/-/node-linux-$arch-$NODE_VERSION.tgz" | tar -xz -C "$RUNTIME_DIR/node" --strip-components=1
ln -sf "$RUNTIME_DIR/node/bin/node" /usr/local/bin/node

suffix=$([ "$arch" = arm64 ] && echo _aarch64 || true)
# GitHub's latest release, else (GitHub not reachable) Debian's package.
if curl -fsSL -o "$RUNTIME_DIR/bin/yt-dlp" "https://github.com/yt-dlp/yt-dlp/releases/latest/download/yt-dlp_linux$suffix"; then
  chmod 755 "$RUNTIME_DIR/bin/yt-dlp"
  ln -sf "$RUNTIME_DIR/bin/yt-dlp" /usr/local/bin/yt-dlp
else
  rm -f "$RUNTIME_DIR/bin/yt-dlp"
  apt-get install -y -q yt-dlp
fi

install -m 644 "$bundle" "$RUNTIME_DIR/recorder.mjs"
mkdir -p /var/lib/capture
node --check "$RUNTIME_DIR/recorder.mjs"
echo "recorder image ready: $(ffmpeg -version | head -1); node $(node -v); yt-dlp $(yt-dlp --version)"
# Boot-time user-data of the image's source machine ran once already: clear it so the image boots clean.
cloud-init clean --logs 2>/dev/null || true
