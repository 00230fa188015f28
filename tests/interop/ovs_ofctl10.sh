#!/bin/sh
exec "$(dirname "$0")/ovs_ofctl.sh" 10
