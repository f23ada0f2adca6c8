#!/bin/sh
# Coverage merging is not available offline; succeed without output.
exit 0
