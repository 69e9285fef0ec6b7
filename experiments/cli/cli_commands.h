// SPDX-License-Identifier: MIT
// Subcommands contributed by the solver libraries (wired in experiments/meson.build).
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#define STABCON_EXTRA_COMMANDS

#endif  // CLI_COMMANDS_H
