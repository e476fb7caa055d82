# The root prelude of a sandboxed command under sudo (os/sandbox.ts). sudo resets the environment
# and values must never be on a command line (/proc/<pid>/cmdline is world-readable), so the role's
# environment travels in a 0600 file of the loop's user that root reads and deletes before anything
# of the role runs; `env -i` runs first, so nothing of sudo's own variables (SUDO_COMMAND, MAIL...)
# reaches the command. The tools come by absolute path: the file sourced sets the role's PATH.
#
#   sh sandbox-load.sh RM CHOWN ENVFILE UID:GID HOME TMPDIR N ENDED… COMMAND…
#
# HOME and TMPDIR (fresh: the loop's user alone wrote them) become the role's; the N folders of
# ended runs are removed here (removing them at each run's end would cost a sudo of its own).
# The tools are read after the file is sourced: it sets variables of any name.
set -e
. "$3"
rm=$1 chown=$2
"$rm" -f -- "$3"
"$chown" -R -- "$4" "$5" "$6"
n=$7
shift 7
while [ "$n" -gt 0 ]; do
  "$rm" -rf -- "$1"
  shift
  n=$((n - 1))
done
exec "$@"
