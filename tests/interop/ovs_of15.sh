#!/bin/sh
exec "$(dirname "$0")/ovs_ofver.sh" 15
