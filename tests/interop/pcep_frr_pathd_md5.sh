#!/bin/bash
# pcep_frr_pathd.sh over TCP-MD5 (RFC 2385): pathd's "tcp-md5-auth" key
# and the embedded PCE's --pcep-md5-password; the session comes up, the
# SR policy is reported and synchronized as without the key.
MD5KEY=sbsim-pathd-key exec "$BASH" "$(dirname "$0")/pcep_frr_pathd.sh"
