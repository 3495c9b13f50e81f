// sd-bus, the D-Bus client of libsystemd: pulsebar follows MPRIS players with it.
#include <systemd/sd-bus.h>
