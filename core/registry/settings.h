/* settings.h — publishing a config's plugin-read settings (internal; plugins read them with
 * ts_config_setting, tscript/plugin.h). settings.c says why they are process-wide.
 */
#ifndef TSCRIPT_REGISTRY_SETTINGS_H
#define TSCRIPT_REGISTRY_SETTINGS_H

#include "registry/config.h"
#include "tscript/plugin.h"

/* Makes c's values (unset ones too) what ts_config_setting returns from now on. */
void ts_settings_publish(const TsConfig *c);

#endif
