# Sourced by the bench scripts that run readbench inside a child cgroup of their own shell's
# (adaptive-bars.sh, separate-runs.sh), so that the limits above that shell still hold.

# This shell's own cgroup directory for controller $1: its cgroup v1 hierarchy, else v2's.
own_cg() {
    local own
    if [ -d "/sys/fs/cgroup/$1" ]; then
        own=$(awk -F: -v c="$1" '$2 ~ "(^|,)" c "(,|$)" {print $3}' /proc/self/cgroup)
        echo "/sys/fs/cgroup/$1${own%/}"
    else
        own=$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)
        echo "/sys/fs/cgroup${own%/}"
    fi
}

# Where a child memory cgroup named $1 of this shell's own goes, and the file that limits it:
# "DIR FILE" on stdout; nothing, and why on stderr, where none can be made (cgroup v1 or v2
# memory; a v2 child has memory.max only where this shell's cgroup hands memory down).
memcg_where() {
    local own
    if [ -d /sys/fs/cgroup/memory ]; then echo "$(own_cg memory)/$1 memory.limit_in_bytes"; return 0; fi
    if ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
        echo "no memory cgroup can be made here (cgroup v1 or v2 memory)" >&2; return 1
    fi
    own=$(own_cg memory)
    if ! grep -qw memory "$own/cgroup.subtree_control" 2>/dev/null; then
        echo "this shell's cgroup ($own) does not enable memory for its children" >&2; return 1
    fi
    echo "$own/$1 memory.max"
}
