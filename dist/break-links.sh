# Root's step before taking a folder back from the roles (os/root-commands.ts, takeFromRoles): each
# file named, a role's with other hard links (one outside the tree, which a chown would hand over
# too), becomes a copy of its own under the same name; the other links keep the old file. A file
# that cannot be copied is removed. Run by find -exec (or -execdir) as root, in batches.
#
#   sh break-links.sh MKTEMP CP MV RM FILE…
set -u
mktemp=$1 cp=$2 mv=$3 rm=$4
shift 4
for f; do
  t=$("$mktemp" "${f%/*}/.phuc-unlinked.XXXXXX") || exit 1
  "$cp" -a --remove-destination -- "$f" "$t" && "$mv" -f -- "$t" "$f" || "$rm" -f -- "$t" "$f" || exit 1
done
