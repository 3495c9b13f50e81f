// libpipewire for Swift. Most of its client API is macros over SPA interface calls and its
// pod builder is macros too; neither imports into Swift, so the few calls pulsebar makes are
// wrapped here in small static inline functions.
#include <errno.h>
#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>
#include <spa/param/audio/format-utils.h>
#include <spa/utils/json.h>

/// The EnumFormat param for F32 interleaved audio at `rate` with `channels` (1: MONO, 2: FL FR),
/// built in `storage` (256 bytes is plenty). NULL if it does not fit.
static inline const struct spa_pod *pb_pw_f32_format(uint8_t *storage, uint32_t size, uint32_t rate,
                                                     uint32_t channels) {
  struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(storage, size);
  struct spa_audio_info_raw info = {0};
  info.format = SPA_AUDIO_FORMAT_F32;
  info.rate = rate;
  info.channels = channels;
  if (channels == 1) {
    info.position[0] = SPA_AUDIO_CHANNEL_MONO;
  } else {
    info.position[0] = SPA_AUDIO_CHANNEL_FL;
    info.position[1] = SPA_AUDIO_CHANNEL_FR;
  }
  return spa_format_audio_raw_build(&builder, SPA_PARAM_EnumFormat, &info);
}

static inline int pb_pw_core_add_listener(struct pw_core *core, struct spa_hook *hook,
                                          const struct pw_core_events *events, void *data) {
  return pw_core_add_listener(core, hook, events, data);
}

static inline int pb_pw_core_sync(struct pw_core *core, int seq) {
  return pw_core_sync(core, PW_ID_CORE, seq);
}

static inline int pb_pw_registry_add_listener(struct pw_registry *registry, struct spa_hook *hook,
                                              const struct pw_registry_events *events, void *data) {
  return pw_registry_add_listener(registry, hook, events, data);
}

static inline int pb_pw_node_add_listener(struct pw_proxy *node, struct spa_hook *hook,
                                          const struct pw_node_events *events, void *data) {
  return pw_node_add_listener((struct pw_node *)node, hook, events, data);
}

static inline int pb_pw_metadata_add_listener(struct pw_proxy *metadata, struct spa_hook *hook,
                                              const struct pw_metadata_events *events, void *data) {
  return pw_metadata_add_listener((struct pw_metadata *)metadata, hook, events, data);
}

static inline struct spa_source *pb_pw_loop_add_timer(struct pw_loop *loop,
                                                      spa_source_timer_func_t func, void *data) {
  return pw_loop_add_timer(loop, func, data);
}

/// Arms `timer` to fire once after `microseconds`.
static inline int pb_pw_loop_arm_timer(struct pw_loop *loop, struct spa_source *timer,
                                       uint64_t microseconds) {
  struct timespec value = {(time_t)(microseconds / 1000000), (long)(microseconds % 1000000) * 1000};
  struct timespec interval = {0, 0};
  return pw_loop_update_timer(loop, timer, &value, &interval, false);
}

static inline void pb_pw_loop_destroy_source(struct pw_loop *loop, struct spa_source *source) {
  pw_loop_destroy_source(loop, source);
}

/// The `name` of a `{ "name": "..." }` metadata value (what `default.audio.sink` holds), copied
/// into `name` (NUL-terminated); 0 if found, -1 if not.
static inline int pb_pw_json_name(const char *json, char *name, int size) {
  struct spa_json it[2];
  char key[64];
  spa_json_init(&it[0], json, strlen(json));
  if (spa_json_enter_object(&it[0], &it[1]) <= 0) return -1;
  while (spa_json_get_string(&it[1], key, sizeof(key)) > 0) {
    if (strcmp(key, "name") == 0) return spa_json_get_string(&it[1], name, size) > 0 ? 0 : -1;
    const char *value;
    if (spa_json_next(&it[1], &value) <= 0) return -1;
  }
  return -1;
}
