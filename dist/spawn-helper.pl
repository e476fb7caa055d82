# The spawn helper of the loop (os/spawner.ts) where the system has perl (core modules only): its
# fork copies a few MB, not Node's ~45. Each request (a 4-byte length, then id, folder, argv and
# environment as NUL-ended fields with their counts, then the child's input) forks a child in its own
# session with exactly that environment; it answers in frames (type, id, length, data): S pid, F errno
# (could not start: chdir or exec failed, told through a close-on-exec pipe), O/E output, o/e end of
# output, X exit (c code or s signal). Input is written without blocking; a child that does not read
# it holds up nothing. When the loop's end of its stdin closes (the loop ended, or was killed), it
# kills its children's process groups and exits. The select timeout is a backstop for a SIGCHLD that
# comes just before select (perl runs signal handlers between its operations).
#
#   perl -e "$(cat spawn-helper.pl)"   (run from /: before 5.26 perl's @INC held ".")
#
# The loop passes the text it read once (os/programs.ts), not the file: the installation may sit in
# a work tree the agent is lent, and a helper started later must not run what the agent wrote there.
# The helper names itself, so that ps shows that name rather than the whole program.
use strict;
use warnings;
$0 = 'phuc-spawn-helper';
use POSIX ();
use Fcntl ();
$SIG{PIPE} = 'IGNORE';
$SIG{CHLD} = sub {};
binmode STDIN; binmode STDOUT;
my (%kid, %out, %in);
my $requests = '';
sub reply {
  my $m = pack('a1 N N', $_[0], $_[1], length($_[2] // '')) . ($_[2] // '');
  while (length $m) {
    my $n = syswrite(STDOUT, $m);
    if (!defined $n) { next if $!{EINTR}; POSIX::_exit(0) }
    substr($m, 0, $n) = '';
  }
}
sub start {
  my ($id, $cwd, $argv, $env, $stdin) = @_;
  my @p;
  for (1 .. 4) { pipe(my $r, my $w) or return reply('F', $id, $! + 0); push @p, $r, $w }
  my ($or, $ow, $er, $ew, $ir, $iw, $xr, $xw) = @p;
  my $pid = fork;
  if (!defined $pid) { my $e = $! + 0; close $_ for @p; return reply('F', $id, $e) }
  if (!$pid) {
    $SIG{PIPE} = $SIG{CHLD} = 'DEFAULT';
    POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new);
    POSIX::setsid();
    POSIX::dup2(fileno $ir, 0); POSIX::dup2(fileno $ow, 1); POSIX::dup2(fileno $ew, 2);
    if (chdir $cwd) { %ENV = %$env; exec { $argv->[0] } @$argv }
    syswrite($xw, pack('N', $! + 0));
    POSIX::_exit(127);
  }
  close $_ for $ow, $ew, $ir, $xw;
  my $err = '';
  while (length $err < 4) { my $n = sysread($xr, $err, 4 - length $err, length $err); last if defined $n && !$n; last if !defined $n && !$!{EINTR} }
  close $xr;
  if (length $err == 4) { waitpid($pid, 0); close $_ for $or, $er, $iw; return reply('F', $id, unpack('N', $err)) }
  $kid{$pid} = $id;
  reply('S', $id, $pid);
  $out{fileno $or} = [$id, 'O', $or];
  $out{fileno $er} = [$id, 'E', $er];
  if (length $stdin) { fcntl($iw, Fcntl::F_SETFL(), Fcntl::O_NONBLOCK()); $in{fileno $iw} = [$iw, $stdin] } else { close $iw }
}
sub request {
  my $m = shift;
  my $at = 0;
  my $field = sub { my $e = index($m, "\0", $at); my $v = substr($m, $at, $e - $at); $at = $e + 1; $v };
  my $id = $field->();
  my $cwd = $field->();
  my @argv = map { $field->() } 1 .. $field->();
  my %env = map { split /=/, $field->(), 2 } 1 .. $field->();
  start($id, $cwd, \@argv, \%env, substr($m, $at));
}
while (1) {
  while ((my $p = waitpid(-1, POSIX::WNOHANG())) > 0) {
    my $id = delete $kid{$p};
    reply('X', $id, ($? & 127) ? 's' . ($? & 127) : 'c' . ($? >> 8)) if defined $id;
  }
  my ($r, $w) = ('', '');
  vec($r, 0, 1) = 1;
  vec($r, $_, 1) = 1 for keys %out;
  vec($w, $_, 1) = 1 for keys %in;
  next if select($r, $w, undef, 0.25) <= 0;
  for my $fd (keys %in) {
    next unless vec($w, $fd, 1);
    my $x = $in{$fd};
    my $n = syswrite($x->[0], $x->[1]);
    if (defined $n) { substr($x->[1], 0, $n) = '' } elsif ($!{EAGAIN} || $!{EINTR}) { next }
    if (!defined $n || !length $x->[1]) { close $x->[0]; delete $in{$fd} }
  }
  for my $fd (keys %out) {
    next unless vec($r, $fd, 1);
    my $x = $out{$fd};
    my $n = sysread($x->[2], my $data, 65536);
    if ($n) { reply($x->[1], $x->[0], $data) }
    elsif (defined $n || !$!{EINTR}) { close $x->[2]; delete $out{$fd}; reply(lc $x->[1], $x->[0]) }
  }
  next unless vec($r, 0, 1);
  my $n = sysread(STDIN, $requests, 65536, length $requests);
  next if !defined $n && $!{EINTR};
  if (!$n) { kill 'KILL', map { -$_ } keys %kid; exit 0 }
  while (length $requests >= 4) {
    my $len = unpack('N', $requests);
    last if length $requests < 4 + $len;
    request(substr($requests, 4, $len));
    substr($requests, 0, 4 + $len) = '';
  }
}
