// What zod's chained API (`import { z } from 'zod'`) sets up before its first schema, done for
// the schemas written with its functional API (`zod/mini`) too, in case they are the only ones
// a process builds: English messages, and the memoizer (a value reached twice, as a YAML alias
// can make it, is parsed once). Import it before `zod/mini` in a module that builds schemas.
//
// Why zod/mini at all: it is the same validation (zod's core, the same checks in the same
// order) without the method table the chained API binds onto every schema object; building the
// record and config schemas with it is part of every `relay log` and `relay apply`, and costs
// about a millisecond instead of three to four, plus the 200 KB of the chained API.
import { config, locales, memoizer } from 'zod/mini';

if (!config().localeError) config(locales.en());
if (!config().memoizer) config({ memoizer: memoizer() });
