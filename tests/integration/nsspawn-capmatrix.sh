#!/bin/bash
# SPDX-License-Identifier: MIT
# The privilege matrix of nsspawn(1) (issue 14, items 1-4).  For root and for an
# unprivileged caller (uid 65534, which needs -U), with nsspawn's bounding set full,
# without CAP_SETPCAP, without CAP_SETGID or without both, for --uid absent or 65534, and
# for the five
# capability requests, the command's five capability sets, uid, gid and groups are
# exactly the documented ones, or nsspawn exits 125 with one line.  Every row is run
# through setpriv(1) too: they agree except where nsspawn(1) says they differ.
. "$TESTLIB"
require_root
command -v setpriv >/dev/null || skip_all "setpriv (util-linux) not installed"
chmod 0755 "$TMP"

last=$(cat /proc/sys/kernel/cap_last_cap)
SETGID=$((1 << 6)) SETPCAP=$((1 << 8)) NBS=$((1 << 10)) NETRAW=$((1 << 13))
# What nsspawn starts with: as root, the bounding set of this test (the machine may lack
# some capability); in a new user namespace, every capability the kernel knows.
ROOTBND=$((0x$(sed -n 's/^CapBnd:\t*//p' /proc/self/status)))
KALL=$(((1 << (last + 1)) - 1))
# The bounding set nsspawn starts with as root, for each state of the matrix.
bound() {
	case $1 in
	full) echo $ROOTBND ;;
	-setpcap) echo $((ROOTBND & ~SETPCAP)) ;;
	-setgid) echo $((ROOTBND & ~SETGID)) ;;
	-both) echo $((ROOTBND & ~(SETPCAP | SETGID))) ;;
	esac
}
lacks_setpcap() { [ "$1" = -setpcap ] || [ "$1" = -both ]; }
lacks_setgid() { [ "$1" = -setgid ] || [ "$1" = -both ]; }

PROBE=(grep -E '^(Uid|Gid|Groups|Cap(Inh|Prm|Eff|Bnd|Amb)):' /proc/self/status)

# observe COMMAND...: one line, "uid=U gid=G groups=G,G inh=.. prm=.. eff=.. bnd=.. amb=.."
# when the command ran, "exit N: STDERR" (lines joined by '|') when it did not.
observe() {
	local out rc
	out=$("$@" 2>"$TMP/err")
	rc=$?
	if [ $rc != 0 ]; then
		echo "exit $rc: $(paste -sd '|' "$TMP/err")"
		return
	fi
	echo "$out" | awk '
		/^Uid:/ { u = ($2 == $3 && $3 == $4 && $4 == $5) ? $2 : $2 "/" $3 "/" $4 "/" $5 }
		/^Gid:/ { g = ($2 == $3 && $3 == $4 && $4 == $5) ? $2 : $2 "/" $3 "/" $4 "/" $5 }
		/^Groups:/ { s = ""; for (i = 2; i <= NF; i++) s = s (i > 2 ? "," : "") $i }
		/^Cap/ { c[substr($1, 4, 3)] = $2 }
		END { printf "uid=%s gid=%s groups=%s inh=%s prm=%s eff=%s bnd=%s amb=%s\n",
		      u, g, s, c["Inh"], c["Prm"], c["Eff"], c["Bnd"], c["Amb"] }'
}

sets() { # sets INH PRM EFF BND AMB (numbers)
	printf 'inh=%016x prm=%016x eff=%016x bnd=%016x amb=%016x' "$@"
}

refused() { echo "exit 125: nsspawn: $*"; }

# expect CALLER BND UID REQ: the documented result (nsspawn(1), PRIVILEGE MATRIX).
expect() {
	local caller=$1 bnd=$2 uid=$3 req=$4 F id groups
	if [ "$caller" = root ]; then
		F=$(bound "$bnd")
		groups=4,6,10 # the caller's, kept when there is no identity switch
	else
		F=$KALL # a new user namespace starts with every capability, whatever ours
		groups=65534,65534,65534 # the caller's, unmapped: the kernel forbids setgroups
	fi
	# The bounding set is shrunk before the identity switch: its refusal comes first.
	if [ "$caller" = root ] && lacks_setpcap "$bnd"; then
		case $req in
		drop-all | drop-all+add)
			refused "cannot drop CAP_CHOWN from the bounding set: needs CAP_SETPCAP"
			return ;;
		drop-net_raw)
			refused "cannot drop CAP_NET_RAW from the bounding set: needs CAP_SETPCAP"
			return ;;
		esac
	fi
	if [ "$caller" = root ] && lacks_setgid "$bnd" && [ "$uid" = 65534 ]; then
		refused "cannot clear the supplementary groups: needs CAP_SETGID"
		return
	fi
	if [ "$uid" = - ]; then
		id="uid=0 gid=0 groups=$groups"
		case $req in
		none | add) echo "$id $(sets 0 $F $F $F 0)" ;;
		drop-all) echo "$id $(sets 0 0 0 0 0)" ;;
		drop-net_raw)
			local K=$((F & ~NETRAW))
			echo "$id $(sets 0 $K $K $K 0)" ;;
		drop-all+add) echo "$id $(sets 0 $NBS $NBS $NBS 0)" ;;
		esac
		return
	fi
	[ "$caller" = root ] && groups=
	id="uid=65534 gid=65534 groups=$groups"
	case $req in
	none) echo "$id $(sets 0 0 0 $F 0)" ;;
	drop-all) echo "$id $(sets 0 0 0 0 0)" ;;
	drop-net_raw) echo "$id $(sets 0 0 0 $((F & ~NETRAW)) 0)" ;;
	add) echo "$id $(sets $NBS $NBS $NBS $F $NBS)" ;;
	drop-all+add) echo "$id $(sets $NBS $NBS $NBS $NBS $NBS)" ;;
	esac
}

ns_opts() { # the capability options of a request
	case $1 in
	none) ;;
	drop-all) echo --cap-drop all ;;
	drop-net_raw) echo --cap-drop net_raw ;;
	add) echo --cap-add net_bind_service ;;
	drop-all+add) echo --cap-drop all --cap-add net_bind_service ;;
	esac
}

# sp_opts REQ UID CLEAR: setpriv's options for the same request.  With CLEAR, setpriv
# starts with every capability in its inheritable and ambient sets (unshare --keep-caps,
# the only way a uid 65534 inside keeps them): the request then clears those first.
sp_opts() {
	local c=""
	[ -n "$3" ] && c=-all,
	case $1 in
	drop-all) echo --bounding-set -all ;;
	drop-net_raw) echo --bounding-set -net_raw ;;
	drop-all+add) echo --bounding-set -all,+net_bind_service ;;
	esac
	case $2/$1 in
	65534/add | 65534/drop-all+add)
		echo --inh-caps ${c}+net_bind_service --ambient-caps ${c}+net_bind_service ;;
	65534/*) [ -n "$c" ] && echo --inh-caps -all --ambient-caps -all ;;
	esac
}

# caller CALLER BND COMMAND...: runs COMMAND as that caller.
caller() {
	local who=$1 bnd=$2 b=()
	shift 2
	case $bnd in
	-setpcap | -setgid) b=(--bounding-set "$bnd") ;;
	-both) b=(--bounding-set -setpcap,-setgid) ;;
	esac
	if [ "$who" = root ]; then
		setpriv --groups 4,6,10 "${b[@]}" -- "$@"
	else
		setpriv "${b[@]}" --reuid 65534 --regid 65534 --groups 4,6,10 -- "$@"
	fi
}

plan 165
table=""
for who in root user; do
	for bnd in full -setpcap -setgid -both; do
		for uid in - 65534; do
			for req in none drop-all drop-net_raw add drop-all+add; do
				# shellcheck disable=SC2046
				set -- $(ns_opts $req)
				u=()
				[ "$uid" = 65534 ] && u=(--uid 65534)
				if [ $who = root ]; then
					ns=("$NSSPAWN" "${u[@]}" "$@")
					sp=(setpriv)
					[ "$uid" = 65534 ] && sp+=(--reuid 65534 --regid 65534 --clear-groups)
				else
					m=()
					[ "$uid" = 65534 ] && m=(--map-user 65534 --map-group 65534)
					ns=("$NSSPAWN" -U "${m[@]}" "${u[@]}" "$@")
					if [ "$uid" = 65534 ]; then
						sp=(unshare -U --map-user=65534 --map-group=65534
							--keep-caps -p -m -f --mount-proc -- setpriv
							--reuid 65534 --regid 65534 --keep-groups)
					else
						sp=(unshare -U -r -p -m -f --mount-proc -- setpriv)
					fi
				fi
				clear=""
				[ $who/$uid = user/65534 ] && clear=1
				# shellcheck disable=SC2046
				sp+=($(sp_opts $req "$uid" "$clear"))
				row="$who bnd=$bnd uid=$uid $req"
				got=$(observe caller $who $bnd "${ns[@]}" -- "${PROBE[@]}")
				want=$(expect $who $bnd "$uid" $req)
				is "$got" "$want" "$row: ${ns[*]#$NSSPAWN}"
				sgot=$(observe caller $who $bnd "${sp[@]}" -- "${PROBE[@]}")
				case $want in
				"exit 125: "*)
					# A refusal.  Without CAP_SETGID setpriv refuses the
					# uid switch too (exit 127); without CAP_SETPCAP it
					# leaves the bounding set as it is and says nothing
					# (libcap-ng's capng_apply), exit 0.
					if ! { [ "$uid" = 65534 ] && lacks_setgid "$bnd"; }; then
						rel="setpriv: exit 0, bounding set unchanged"
						case $sgot in
						"exit "*) r=1 ;;
						*"bnd=$(printf %016x "$(bound "$bnd")") "*) r=0 ;;
						*) r=1 ;;
						esac
					else
						rel="setpriv refuses too"
						case $sgot in "exit 0"* | uid=*) r=1 ;; *) r=0 ;; esac
					fi
					ok $r "$row: $rel (${sp[*]}: $sgot)" ;;
				*)
					rel="same as setpriv"
					is "$sgot" "$got" "$row: the same as ${sp[*]}" ;;
				esac
				table="$table
# $(printf '%-5s %-8s %-5s %-12s' $who $bnd "$uid" $req) ${got#exit 125: nsspawn: } [$rel]"
			done
		done
	done
done

# Rows that are refused whatever the bounding set.
is "$(observe setpriv --reuid 65534 --regid 65534 --clear-groups -- "$NSSPAWN" -U --uid 65534 -- true)" \
	"exit 125: nsspawn: gid 65534 (the group of uid 65534) has no mapping in the user namespace: give --gid with a mapped one (see --map-group)" \
	"user -U --uid 65534 without --map-user: refused, its group is not mapped"
is "$(observe setpriv --reuid 65534 --regid 65534 --clear-groups -- "$NSSPAWN" -U --uid 65534 --gid 0 -- true)" \
	"exit 125: nsspawn: uid 65534 has no mapping in the user namespace: pick a mapped one (see --map-user)" \
	"user -U --uid 65534 --gid 0: refused, uid 65534 is not mapped"
is "$(observe setpriv --bounding-set -net_admin -- "$NSSPAWN" --cap-add net_admin -- true)" \
	"exit 125: nsspawn: cannot add CAP_NET_ADMIN: it is not in nsspawn's bounding set" \
	"--cap-add of a capability outside nsspawn's bounding set: refused"
if getent passwd 12345 >/dev/null; then
	ok 0 "# SKIP uid 12345 has an entry in the user database here"
else
	is "$(observe "$NSSPAWN" --uid 12345 -- true)" \
		"exit 125: nsspawn: uid 12345 has no entry in the user database: give --gid too" \
		"--uid without --gid for a uid without a user database entry: refused"
fi
is "$(observe "$NSSPAWN" --uid 12345 --gid 12345 -- "${PROBE[@]}" | cut -d' ' -f1-3)" \
	"uid=12345 gid=12345 groups=" "--uid 12345 --gid 12345: that identity, no groups"
echo "# The matrix (caller, nsspawn's bounding set, --uid, request: result [setpriv]):$table"
