/* SPDX-License-Identifier: MIT */
/* Terminals and job control: the terminal's foreground, and stopping with the command. */
#ifndef PIDONE_JOBCTL_H
#define PIDONE_JOBCTL_H

#include <stdbool.h>

#include "state.h"

/* Before the spawn: decides whether the command shares our terminal (st->tty_shared) or
 * gets a session of its own (st->cmd_session); as dumb-init, gives the terminal up for it.
 * Returns true when the command's group should take the terminal's foreground. */
bool jobctl_prepare(struct pidone *st);

/* From the reaper, at every SIGCHLD: has the command stopped or gone on? */
void jobctl_poll(struct pidone *st);

/* The command has exited: the terminal's foreground goes back to pidone's group. */
void jobctl_command_exited(struct pidone *st);

/* Called for a signal sig about to be forwarded to the running command as to; returns the
 * signal to send instead (SIGSTOP for a job-control stop no terminal would carry out). */
int jobctl_forwarding(struct pidone *st, int sig, int to);

/* At the end of a turn of the loop: pidone stops if the command did (see jobctl.c). */
void jobctl_settle(struct pidone *st);

#endif
