/* SPDX-License-Identifier: MIT */
/* Security test helper: tries to push characters into the input queue of the terminal on
 * standard input with TIOCSTI, as a sandbox escape would.  Prints "injected" or
 * "refused: REASON" and exits 0 or 1. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

int main(int argc, char **argv)
{
	const char *text = argc > 1 ? argv[1] : "echo INJECTED\n";

	for (; *text; text++) {
		if (ioctl(0, TIOCSTI, text) < 0) {
			printf("refused: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("injected\n");
	return 0;
}
