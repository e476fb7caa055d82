# The first program of a sandboxed command (os/sandbox.ts), run as root inside the namespaces
# bubblewrap made (bwrap is PID 1 there: when the command ends, the kernel ends the namespace). It sets
# the command's view of the file system up, closes the kernel's keyrings to it, switches to the
# command's user without any capability, then execs it.
#
#   perl sandbox-init.pl FILTER MOUNT KEYCTL PRCTL SETGROUPS SETRESGID SETRESUID CAPSET UID GID
#                        DIR KEEP… RO… OVL SHM LAYERED… COVERS… LOOPS… MASKED… -- COMMAND…
#
# FILTER is the seccomp program in hex (os/sandbox-keys.ts); MOUNT … CAPSET are the syscall numbers
# of this architecture. UID and GID are the command's user and group (user+pidns), or "-" to stay
# the namespace's root (pidns). Then, each list after its count:
# - DIR, the command's folder, entered last (under sudo the loop's user may not enter a role's folder);
# - KEEP, the folders the command may write (its folder, HOME, TMPDIR, agent.writable), opened first
#   and bound back writable at their own paths through /proc/self/fd at the end, so that neither a
#   cover nor a read-only mount above them changes them;
# - RO, the mounts to make read-only: nothing the command writes elsewhere outlives it;
# - OVL, overlay options (",userxattr" in a user namespace), SHM, the real /dev/shm (or ""), then
#   LAYERED, the other scratch folders, "MODE FOLDER". /dev/shm becomes an empty tmpfs of the
#   command's own, which also holds (in a folder only root enters) a private upper layer for each
#   other scratch folder: the command sees the folder as it was and writes to its own layer (an
#   empty tmpfs where overlayfs cannot mount), so a file left there by one command is never seen by
#   another;
# - COVERS, the folders to hide under an empty tmpfs, "MODE FOLDER";
# - LOOPS, the loop's own folders in a work tree a role holds (.git, scratch/), made read-only;
# - MASKED, the machine's unix sockets to mask with /dev/null (a command with a network of its own).
#
# Each mount is a mount(2) call. A bind remount gives the mount's own flags again (nosuid, nodev,
# noexec, atime, as mount(8) does: a user namespace refuses to clear those it locked), read from
# mountinfo; the scratch folders and covers keep the nosuid, nodev and noexec of the mount that held
# them (held_by).
#
# Kernel keyrings outlive processes and namespaces, and no mount hides them: before the exec the
# command joins a fresh, empty session keyring (it would inherit the loop's), then the seccomp filter
# makes add_key, request_key and keyctl fail with ENOSYS for it and everything it starts, for good.
#
# The user switch is setpriv's `--reuid UID --regid GID --clear-groups --no-new-privs --inh-caps=-all
# --bounding-set=-all` done here, one program start fewer per command: the bounding set emptied (while
# root may), no supplementary group, the real, effective and saved ids all the role's (which clears the
# permitted, effective and ambient capabilities), then every capability set zeroed (the inheritable one
# survives a uid change). A command that is a program run in this interpreter (the agent's network
# forwarder, which stays root to reach the loop's sockets) calls `become` itself, in the child it execs.
use strict;
# Warnings on as -w does: `use warnings` loads warnings.pm, a quarter of this program's CPU per
# start, and it starts with every sandboxed command (the agent's forwarder, run here, loads it all the same).
BEGIN { $^W = 1 }

# syscall() passes a string as a pointer: the numbers are made numbers.
my ($filter, $SYS_MOUNT, $SYS_KEYCTL, $SYS_PRCTL, $SYS_SETGROUPS, $SYS_SETRESGID, $SYS_SETRESUID, $SYS_CAPSET) =
  (pack('H*', shift @ARGV), map { 0 + $_ } splice @ARGV, 0, 7);
my ($uid, $gid) = splice @ARGV, 0, 2;
# A role's user is never root: anything but "-" or a uid above 0 (a number) is refused, never taken as 0.
$uid eq '-' && $gid eq '-' or $uid =~ /^[1-9][0-9]*$/ && $gid =~ /^[0-9]+$/ or die "phuc-sandbox: not a user and group: $uid $gid\n";
my ($RDONLY, $NOSUID, $NODEV, $NOEXEC, $REMOUNT, $BIND, $REC, $RELATIME, $NOATIME, $STRICTATIME) =
  (1, 2, 4, 8, 32, 4096, 16384, 1 << 21, 1024, 1 << 24);
my %FLAG = (ro => $RDONLY, nosuid => $NOSUID, nodev => $NODEV, noexec => $NOEXEC, nosymfollow => 256, noatime => $NOATIME, nodiratime => 2048, relatime => $RELATIME);

sub mnt {
  my ($src, $dst, $type, $flags, $data) = @_;
  syscall($SYS_MOUNT, $src // 0, $dst, $type // 0, $flags, $data // 0) == 0 or die "phuc-sandbox: mount $dst: $!\n";
}

sub mounts {
  open(my $fh, '<', '/proc/self/mountinfo') or die "phuc-sandbox: mountinfo: $!\n";
  return map {
    my @x = split / /;
    (my $at = $x[4]) =~ s/\\([0-7]{3})/chr oct $1/ge;
    my $f = 0;
    $f |= $FLAG{$_} // 0 for split /,/, $x[5];
    $f |= $STRICTATIME unless $f & ($NOATIME | $RELATIME);
    [$at, $f];
  } <$fh>;
}

sub flags_of {
  my ($dst) = @_;
  my ($m) = grep { $_->[0] eq $dst } reverse mounts();
  $m or die "phuc-sandbox: $dst is not a mount point\n";
  return $m->[1];
}

sub remount {
  my ($dst, $ro) = @_;
  mnt(undef, $dst, undef, $REMOUNT | $BIND | (flags_of($dst) & ~$RDONLY) | ($ro ? $RDONLY : 0));
}

sub become {
  my $cap = 0;
  $cap++ while syscall($SYS_PRCTL, 24, $cap, 0, 0, 0) == 0;    # PR_CAPBSET_DROP, up to the last (EINVAL)
  $!{EINVAL} && $cap > 0 or die "phuc-sandbox: the bounding set: $!\n";
  if ($uid ne '-') {
    syscall($SYS_SETGROUPS, 0, 0) == 0 or die "phuc-sandbox: setgroups: $!\n";
    syscall($SYS_SETRESGID, map { 0 + $_ } ($gid) x 3) == 0 or die "phuc-sandbox: setresgid $gid: $!\n";
    syscall($SYS_SETRESUID, map { 0 + $_ } ($uid) x 3) == 0 or die "phuc-sandbox: setresuid $uid: $!\n";
  }
  # _LINUX_CAPABILITY_VERSION_3, this process; two (effective, permitted, inheritable) words, all 0.
  my ($header, $sets) = (pack('L L', 0x20080522, 0), pack('L6', (0) x 6));
  syscall($SYS_CAPSET, $header, $sets) == 0 or die "phuc-sandbox: capset: $!\n";
}

sub held_by {
  my ($p) = @_;
  my ($m) = sort { length $b->[0] <=> length $a->[0] } grep { $_->[0] eq $p || $_->[0] eq '/' || index($p, "$_->[0]/") == 0 } reverse mounts();
  return $m ? $m->[1] & ($NOSUID | $NODEV | $NOEXEC) : 0;
}

# The next list of the arguments: its count, then that many entries (of `per` arguments each).
sub list {
  my $per = shift // 1;
  my $n = shift(@ARGV) * $per;
  return splice @ARGV, 0, $n;
}

chdir '/' or die "phuc-sandbox: /: $!\n";
my $dir = shift @ARGV;
my @keep = map { open(my $fh, '<', $_) or die "phuc-sandbox: $_: $!\n"; [$_, $fh] } list();
for my $p (list()) { eval { remount($p, 1); 1 } or !-e $p or die $@ }
my ($ovl, $shm) = splice @ARGV, 0, 2;
my @layered = list(2);
my $l = '';
if ($shm ne '') {
  mnt('phuc-scratch', $shm, 'tmpfs', held_by($shm), 'mode=1777');
  $l = "$shm/.phuc-scratch";
  mkdir $l, 0700 or die "phuc-sandbox: $l: $!\n";
  for my $d (map { ("$l/u$_", "$l/w$_") } 1 .. @layered / 2) { $l = '' unless mkdir($d) && chmod(01777, $d) }
}
for (my $n = @layered / 2; $n > 0; $n--) {
  my ($mode, $path) = splice @layered, 0, 2;
  my $keep = held_by($path);
  next if $l ne '' && eval { mnt('phuc-scratch', $path, 'overlay', $keep, "lowerdir=$path,upperdir=$l/u$n,workdir=$l/w$n$ovl"); 1 };
  mnt('phuc-scratch', $path, 'tmpfs', $keep, "mode=$mode");
}
my @covers = list(2);
while (my ($mode, $path) = splice @covers, 0, 2) { mnt('phuc-hide', $path, 'tmpfs', held_by($path), "mode=$mode") if -e $path }
for (@keep) {
  my ($p, $fh) = @$_;
  my $at = '';
  for (grep { length } split m{/}, $p) { $at .= "/$_"; -d $at or mkdir $at or die "phuc-sandbox: $at: $!\n" }
  mnt('/proc/self/fd/' . fileno($fh), $p, undef, $BIND | $REC);
  remount($p, 0);
  close $fh;
}
for my $p (list()) { mnt($p, $p, undef, $BIND); remount($p, 1) }
for my $p (list()) { eval { mnt('/dev/null', $p, undef, $BIND); 1 } or !-e $p or die $@ }
shift @ARGV eq '--' or die "phuc-sandbox: the arguments do not end with --\n";
@ARGV or die "phuc-sandbox: no command\n";
chdir $dir or die "phuc-sandbox: $dir: $!\n";
syscall($SYS_KEYCTL, 1, 0) >= 0 or $!{ENOSYS} or $!{EOPNOTSUPP} or die "phuc-sandbox: a fresh session keyring: $!\n";
syscall($SYS_PRCTL, 38, 1, 0, 0, 0) == 0 or die "phuc-sandbox: no_new_privs: $!\n";
syscall($SYS_PRCTL, 22, 2, pack('S x![p] p', length($filter) / 8, $filter)) == 0 or die "phuc-sandbox: seccomp: $!\n";
# A command that is this perl running a program file (the agent's network forwarder, a file of the
# loop's) runs in this interpreter: one start of perl fewer for every agent step.
if (@ARGV > 1 && $ARGV[0] eq $^X && $ARGV[1] =~ m{^/}) {
  (undef, my $program) = splice @ARGV, 0, 2;
  $0 = $program;
  do $program;
  die "phuc-sandbox: $program: " . ($@ || $! || 'ended without exit') . "\n";
}
become();
exec { $ARGV[0] } @ARGV or die "phuc-sandbox: $ARGV[0]: $!\n";
