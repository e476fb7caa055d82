# The first program of the agent's own network namespace (os/network.ts), started as the
# namespace's root (the command's user switch, sandbox-init.pl's `become`, happens in its child): on
# the loopback bubblewrap brought up, it listens on 127.0.0.1 at each mapped port and relays every
# connection to a unix socket of the loop's (bound into the command's view), then runs the command
# and exits with its status. The namespace has no other way out: what the command reaches is what
# the loop serves on those sockets.
# perl (core modules only), not Node: it starts with every agent step, and Node's start-up was most
# of what the network policy cost per iteration (bench/floor.ts). sandbox-init.pl runs it in its own
# interpreter (`do`), not a second perl: it must end by exit, never by running off its end.
#
#   perl net-forwarder.pl PORT=SOCKET … -- COMMAND [ARG …]
#
# Each connection is relayed both ways without blocking (a peer that does not read holds up only its
# own connection); an end of input is passed on as a half-close once what came before it is written.
# Signals: the command shares this process's group, so the loop's SIGTERM reaches it directly; this
# process ignores it and ends when the command ends (its connections with it).
use strict;
use warnings;
use POSIX ();
use Fcntl qw(F_GETFL F_SETFL O_NONBLOCK);
use Socket qw(AF_INET AF_UNIX SOCK_STREAM SOL_SOCKET SO_REUSEADDR SHUT_WR INADDR_LOOPBACK pack_sockaddr_in pack_sockaddr_un);

sub fail { print STDERR "phuc-net-forwarder: $_[0]\n"; exit($_[1] // 2) }

my ($end) = grep { $ARGV[$_] eq '--' } 0 .. $#ARGV;
fail('usage: net-forwarder PORT=SOCKET … -- COMMAND [ARG …]') if !defined $end || $end < 1 || $end == $#ARGV;
my @maps = map { m{^(\d{1,5})=(/.*)$}s && $1 >= 1 && $1 <= 65535 ? [$1, $2] : fail("not PORT=/SOCKET: $_") } @ARGV[0 .. $end - 1];
my @command = @ARGV[$end + 1 .. $#ARGV];

sub nonblocking { my $f = fcntl($_[0], F_GETFL, 0) or die "phuc-net-forwarder: fcntl: $!\n"; fcntl($_[0], F_SETFL, $f | O_NONBLOCK) }

# Listening socket's fileno → [handle, unix socket path].
my %listener;
for (@maps) {
  my ($port, $path) = @$_;
  socket(my $s, AF_INET, SOCK_STREAM, 0) or fail("socket: $!", 1);
  setsockopt($s, SOL_SOCKET, SO_REUSEADDR, 1);
  bind($s, pack_sockaddr_in($port, INADDR_LOOPBACK)) or fail("127.0.0.1:$port: $!", 1);
  listen($s, 128) or fail("listen $port: $!", 1);
  nonblocking($s);
  $listener{fileno $s} = [$s, $path];
}

$SIG{$_} = 'IGNORE' for qw(TERM INT HUP);
$SIG{PIPE} = 'IGNORE';
# A handler (not the default) so that the command's end interrupts select.
$SIG{CHLD} = sub { };
my $pid = fork // fail("fork: $!", 1);
if (!$pid) {
  $SIG{$_} = 'DEFAULT' for qw(TERM INT HUP PIPE CHLD);
  close $_->[0] for values %listener;
  # Run by sandbox-init.pl (in its interpreter), the command takes its user here: the forwarder stays root.
  main::become() if defined &main::become;
  exec { $command[0] } @command or print STDERR "phuc-net-forwarder: $command[0]: $!\n";
  POSIX::_exit(127);
}

# Connection's fileno → {fh, peer (its fileno), out (bytes read from the peer, to write here), in_done
# (its input ended), shut (the peer's input ended: half-close this one once `out` is written)}.
my %conn;

sub drop {
  my ($c) = @_;
  for my $x ($c, $conn{$c->{peer}} // ()) { delete $conn{fileno $x->{fh}}; close $x->{fh} }
}

sub pair {
  my ($l) = @_;
  my ($s, $path) = @$l;
  accept(my $inside, $s) or return;
  socket(my $outside, AF_UNIX, SOCK_STREAM, 0) or return;
  connect($outside, pack_sockaddr_un($path)) or return;
  nonblocking($_) for $inside, $outside;
  my ($i, $o) = (fileno $inside, fileno $outside);
  $conn{$i} = { fh => $inside, peer => $o, out => '', in_done => 0, shut => 0 };
  $conn{$o} = { fh => $outside, peer => $i, out => '', in_done => 0, shut => 0 };
}

sub finished { my ($c) = @_; my $p = $conn{$c->{peer}}; $c->{in_done} && $p->{in_done} && $c->{out} eq '' && $p->{out} eq '' }

while (1) {
  my $w = waitpid($pid, POSIX::WNOHANG());
  exit($? & 127 ? 128 + ($? & 127) : $? >> 8) if $w == $pid;
  my ($r, $wr) = ('', '');
  vec($r, $_, 1) = 1 for keys %listener;
  for my $c (values %conn) {
    # Read only what the peer can take now: its buffer is empty.
    vec($r, fileno $c->{fh}, 1) = 1 if !$c->{in_done} && $conn{$c->{peer}}{out} eq '';
    vec($wr, fileno $c->{fh}, 1) = 1 if $c->{out} ne '';
  }
  next if select($r, $wr, undef, 0.25) <= 0;
  for my $fd (keys %listener) { pair($listener{$fd}) if vec($r, $fd, 1) }
  for my $fd (keys %conn) {
    my $c = $conn{$fd} or next;
    next unless vec($wr, $fd, 1) && $c->{out} ne '';
    my $n = syswrite($c->{fh}, $c->{out});
    if (!defined $n) { drop($c) unless $!{EAGAIN} || $!{EINTR}; next }
    substr($c->{out}, 0, $n) = '';
    shutdown($c->{fh}, SHUT_WR) if $c->{out} eq '' && $c->{shut};
    drop($c) if finished($c);
  }
  for my $fd (keys %conn) {
    my $c = $conn{$fd} or next;
    next unless vec($r, $fd, 1);
    my $n = sysread($c->{fh}, my $data, 65536);
    if (!defined $n) { drop($c) unless $!{EAGAIN} || $!{EINTR}; next }
    my $p = $conn{$c->{peer}};
    if ($n) { $p->{out} .= $data; next }
    $c->{in_done} = 1;
    if ($p->{out} eq '') { shutdown($p->{fh}, SHUT_WR) } else { $p->{shut} = 1 }
    drop($c) if finished($c);
  }
}
