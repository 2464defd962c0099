// libsqlite3, as installed by Debian's libsqlite3-dev. Only MigrationStore imports this module.
#ifndef RECEIPT_MIGRATE_CSQLITE_SHIM_H
#define RECEIPT_MIGRATE_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
