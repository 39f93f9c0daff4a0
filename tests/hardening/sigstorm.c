/* SPDX-License-Identifier: MIT */
/* Stress helper: sends a storm of mixed signals to one process.
 *   sigstorm -p PID -n COUNT [-s SEED] [-r PERCENT_RT] [-u MICROSECONDS_BETWEEN] [-m MAXSIG]
 * Real-time signals are queued with sigqueue and retried while the kernel's queue is
 * full (EAGAIN), so each one counted was really queued; standard signals may coalesce.
 * -m leaves out real-time signals above MAXSIG (valgrind keeps SIGRTMAX for itself).
 * Prints "SIGNO COUNT" for every signal sent, then "rt TOTAL". */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Offsets from SIGRTMIN (34) that pidone forwards as plain signals: not the systemd
 * halt/poweroff (3, 4, 13, 14) nor the nspawn reboot ones (5, 6, 15, 16). */
static const int rt_offsets[] = { 0, 1, 2, 7, 8, 9, 10, 11, 12, 17, 18, 19, 20, 25, 30 };
static const int std_sigs[] = { SIGUSR1, SIGUSR2, SIGHUP, SIGWINCH, SIGALRM, SIGURG, SIGCONT };

int main(int argc, char **argv)
{
	unsigned long counts[65] = { 0 }, rt_total = 0;
	int opt, n = 0, pct = 50, gap = 0, maxsig = 64, i, s;
	unsigned seed = (unsigned)time(NULL);
	pid_t pid = 0;

	while ((opt = getopt(argc, argv, "p:n:s:r:u:m:")) != -1) {
		switch (opt) {
		case 'p': pid = (pid_t)atoi(optarg); break;
		case 'n': n = atoi(optarg); break;
		case 's': seed = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'r': pct = atoi(optarg); break;
		case 'u': gap = atoi(optarg); break;
		case 'm': maxsig = atoi(optarg); break;
		default: return 2;
		}
	}
	if (pid <= 0 || n <= 0)
		return 2;
	srand(seed);
	for (i = 0; i < n; i++) {
		if (rand() % 100 < pct) {
			union sigval v = { .sival_int = i };

			do
				s = 34 + rt_offsets[rand() % (int)(sizeof(rt_offsets) / sizeof(rt_offsets[0]))];
			while (s > maxsig);
			while (sigqueue(pid, s, v) < 0) {
				if (errno != EAGAIN) {
					fprintf(stderr, "sigqueue %d: %s\n", s, strerror(errno));
					return 1;
				}
				usleep(1000);
			}
			rt_total++;
		} else {
			s = std_sigs[rand() % (int)(sizeof(std_sigs) / sizeof(std_sigs[0]))];
			if (kill(pid, s) < 0) {
				fprintf(stderr, "kill %d: %s\n", s, strerror(errno));
				return 1;
			}
		}
		counts[s]++;
		if (gap)
			usleep((useconds_t)gap);
	}
	for (s = 1; s <= 64; s++)
		if (counts[s])
			printf("%d %lu\n", s, counts[s]);
	printf("rt %lu\n", rt_total);
	return 0;
}
