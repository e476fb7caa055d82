# Creates the role users of the sandbox once per machine (os/sandbox.ts), or reads them back: one
# line "NAME UID GID GROUPS…" each. System users with no login shell, no HOME and no other group.
# Loops serialise on the passwd lock; a user made meanwhile by anyone else makes useradd fail, and
# the user is then simply read back.
#
#   sh sandbox-users.sh NAME…
set -e
umask 077
exec 9>>/etc/.pwd.lock
flock 9
shell=/usr/sbin/nologin
[ -x "$shell" ] || shell=/sbin/nologin
[ -x "$shell" ] || shell=/bin/false
for u in "$@"; do
  id -u "$u" >/dev/null 2>&1 || useradd --system --user-group --no-create-home --home-dir /nonexistent --shell "$shell" "$u" || id -u "$u" >/dev/null
  echo "$u $(id -u "$u") $(id -g "$u") $(id -G "$u")"
done
