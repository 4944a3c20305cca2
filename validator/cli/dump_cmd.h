/* `hpcvet dump` (see dump_cmd.c). */
#ifndef HV_DUMP_CMD_H
#define HV_DUMP_CMD_H

/* argv[1] is "dump"; returns the exit code. */
int hv_cmd_dump(int argc, char **argv);

#endif
