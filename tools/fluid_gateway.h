/*
 * fluid_gateway.h - apply through a Flink SQL Gateway, shared by
 * fluid-gateway(1) (its main) and fluid apply --target (fluid_apply.c).
 */
#ifndef FLUID_FLUID_GATEWAY_H
#define FLUID_FLUID_GATEWAY_H

/* fluid-gateway --help, and what fluid apply --target takes. */
extern const char gateway_usage[];

/*
 * The options and FILE of an apply (argv[0] is the command's name, as
 * getopt expects), then everything it does; returns the exit status.
 * usage is printed for --help.  net_init() must have run.
 */
int	gateway_apply(int argc, char *argv[], const char *usage);

#endif
