#include "core/storage/CoalescingWalVfs.h"

#include <sqlite3.h>

#include <cstring>
#include <string_view>

namespace cdc::storage {

namespace {

/// Under the default VFS's limit: its write takes at most 128 KiB - 1 bytes per call (it masks the
/// length to 17 bits) and reports a longer one as a full disk. A 2 KiB-page frame is 2,072 bytes, so one
/// call writes about 47 of them instead of 94 calls.
constexpr int kBufferBytes = 96 << 10;

sqlite3_vfs* g_base = nullptr; ///< the default VFS, which does the I/O

/// What SQLite allocates per open file (szOsFile): this header, then the default VFS's file.
struct File {
    sqlite3_file base; ///< first: SQLite passes &base to the methods
    sqlite3_file* real;
    bool wal;
    char* buffer;         ///< gathered WAL bytes (allocated on the first write)
    int used;             ///< bytes in buffer
    sqlite3_int64 offset; ///< where buffer[0] goes in the file
};
static_assert(sizeof(File) % 8 == 0, "the default VFS's file follows, and needs 8-byte alignment");

File* self(sqlite3_file* file) {
    return reinterpret_cast<File*>(file);
}
const sqlite3_io_methods& real(File* f) {
    return *f->real->pMethods;
}

/// Writes the gathered bytes. On failure they are dropped: the sync or read that asked fails, so the
/// commit is not published, and SQLite writes the frames again when it retries.
int flush(File* f) {
    if (f->used == 0)
        return SQLITE_OK;
    const int used = f->used;
    f->used = 0;
    return real(f).xWrite(f->real, f->buffer, used, f->offset);
}

int fileClose(sqlite3_file* file) {
    File* f = self(file);
    const int flushed = flush(f);
    sqlite3_free(f->buffer);
    f->buffer = nullptr;
    const int closed = real(f).xClose(f->real);
    return flushed != SQLITE_OK ? flushed : closed;
}

int fileRead(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) {
    File* f = self(file);
    if (int rc = flush(f); rc != SQLITE_OK)
        return rc;
    return real(f).xRead(f->real, data, amount, offset);
}

int fileWrite(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
    File* f = self(file);
    if (!f->wal)
        return real(f).xWrite(f->real, data, amount, offset);
    // Only appends are gathered; a write elsewhere (a frame rewritten within a transaction, a new WAL
    // header) first writes out what is gathered, so the file sees the writes in their order.
    if (f->used > 0 && (offset != f->offset + f->used || f->used + amount > kBufferBytes))
        if (int rc = flush(f); rc != SQLITE_OK)
            return rc;
    if (amount > kBufferBytes)
        return real(f).xWrite(f->real, data, amount, offset);
    if (!f->buffer) {
        f->buffer = static_cast<char*>(sqlite3_malloc(kBufferBytes));
        if (!f->buffer)
            return SQLITE_IOERR_NOMEM;
    }
    if (f->used == 0)
        f->offset = offset;
    std::memcpy(f->buffer + f->used, data, static_cast<std::size_t>(amount));
    f->used += amount;
    return SQLITE_OK;
}

int fileTruncate(sqlite3_file* file, sqlite3_int64 size) {
    File* f = self(file);
    if (int rc = flush(f); rc != SQLITE_OK)
        return rc;
    return real(f).xTruncate(f->real, size);
}

int fileSync(sqlite3_file* file, int flags) {
    File* f = self(file);
    if (int rc = flush(f); rc != SQLITE_OK)
        return rc;
    return real(f).xSync(f->real, flags);
}

int fileSize(sqlite3_file* file, sqlite3_int64* size) {
    File* f = self(file);
    if (int rc = flush(f); rc != SQLITE_OK)
        return rc;
    return real(f).xFileSize(f->real, size);
}

int fileLock(sqlite3_file* file, int level) {
    File* f = self(file);
    return real(f).xLock(f->real, level);
}

int fileUnlock(sqlite3_file* file, int level) {
    File* f = self(file);
    if (int rc = flush(f); rc != SQLITE_OK)
        return rc;
    return real(f).xUnlock(f->real, level);
}

int fileCheckReservedLock(sqlite3_file* file, int* out) {
    File* f = self(file);
    return real(f).xCheckReservedLock(f->real, out);
}

/// Whether a `PRAGMA synchronous` value syncs the WAL at every commit (FULL = 2, EXTRA = 3).
bool syncsEveryCommit(std::string_view value) {
    return value == "2" || value == "3" || sqlite3_stricmp(value.data(), "full") == 0 ||
           sqlite3_stricmp(value.data(), "extra") == 0;
}

int fileControl(sqlite3_file* file, int op, void* arg) {
    File* f = self(file);
    if (op == SQLITE_FCNTL_PRAGMA) {
        // [0] error message out, [1] pragma name, [2] value (NULL when only queried).
        char** pragma = static_cast<char**>(arg);
        if (pragma[1] && pragma[2] && sqlite3_stricmp(pragma[1], "synchronous") == 0 &&
            !syncsEveryCommit(pragma[2])) {
            pragma[0] = sqlite3_mprintf("a database on a RAM-backed filesystem keeps synchronous = FULL: "
                                        "its WAL writes are gathered until the commit's sync");
            return SQLITE_ERROR;
        }
    }
    if (int rc = flush(f); rc != SQLITE_OK)
        return rc;
    return real(f).xFileControl(f->real, op, arg);
}

int fileSectorSize(sqlite3_file* file) {
    File* f = self(file);
    return real(f).xSectorSize(f->real);
}

int fileDeviceCharacteristics(sqlite3_file* file) {
    File* f = self(file);
    return real(f).xDeviceCharacteristics(f->real);
}

// The WAL index (shared memory) and memory-mapped reads belong to the database file: passed through.
int fileShmMap(sqlite3_file* file, int page, int pageSize, int extend, void volatile** out) {
    File* f = self(file);
    if (real(f).iVersion < 2 || !real(f).xShmMap)
        return SQLITE_IOERR_SHMMAP;
    return real(f).xShmMap(f->real, page, pageSize, extend, out);
}

int fileShmLock(sqlite3_file* file, int offset, int n, int flags) {
    File* f = self(file);
    if (real(f).iVersion < 2 || !real(f).xShmLock)
        return SQLITE_IOERR_SHMLOCK;
    return real(f).xShmLock(f->real, offset, n, flags);
}

void fileShmBarrier(sqlite3_file* file) {
    File* f = self(file);
    if (real(f).iVersion >= 2 && real(f).xShmBarrier)
        real(f).xShmBarrier(f->real);
}

int fileShmUnmap(sqlite3_file* file, int deleteFlag) {
    File* f = self(file);
    if (real(f).iVersion < 2 || !real(f).xShmUnmap)
        return SQLITE_OK;
    return real(f).xShmUnmap(f->real, deleteFlag);
}

int fileFetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
    File* f = self(file);
    if (real(f).iVersion < 3 || !real(f).xFetch) {
        *out = nullptr;
        return SQLITE_OK;
    }
    return real(f).xFetch(f->real, offset, amount, out);
}

int fileUnfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
    File* f = self(file);
    if (real(f).iVersion < 3 || !real(f).xUnfetch)
        return SQLITE_OK;
    return real(f).xUnfetch(f->real, offset, page);
}

const sqlite3_io_methods kMethods = {
    3,
    fileClose,
    fileRead,
    fileWrite,
    fileTruncate,
    fileSync,
    fileSize,
    fileLock,
    fileUnlock,
    fileCheckReservedLock,
    fileControl,
    fileSectorSize,
    fileDeviceCharacteristics,
    fileShmMap,
    fileShmLock,
    fileShmBarrier,
    fileShmUnmap,
    fileFetch,
    fileUnfetch,
};

int vfsOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags) {
    File* f = self(file);
    f->real = reinterpret_cast<sqlite3_file*>(f + 1);
    f->wal = (flags & SQLITE_OPEN_WAL) != 0;
    f->buffer = nullptr;
    f->used = 0;
    f->offset = 0;
    const int rc = g_base->xOpen(g_base, name, f->real, flags, outFlags);
    // SQLite calls xClose when pMethods is set, even after a failed open: only when the real file is open.
    file->pMethods = f->real->pMethods ? &kMethods : nullptr;
    return rc;
}

int vfsDelete(sqlite3_vfs*, const char* name, int syncDir) {
    return g_base->xDelete(g_base, name, syncDir);
}
int vfsAccess(sqlite3_vfs*, const char* name, int flags, int* out) {
    return g_base->xAccess(g_base, name, flags, out);
}
int vfsFullPathname(sqlite3_vfs*, const char* name, int size, char* out) {
    return g_base->xFullPathname(g_base, name, size, out);
}
void* vfsDlOpen(sqlite3_vfs*, const char* name) {
    return g_base->xDlOpen(g_base, name);
}
void vfsDlError(sqlite3_vfs*, int size, char* out) {
    g_base->xDlError(g_base, size, out);
}
void (*vfsDlSym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
    return g_base->xDlSym(g_base, handle, symbol);
}
void vfsDlClose(sqlite3_vfs*, void* handle) {
    g_base->xDlClose(g_base, handle);
}
int vfsRandomness(sqlite3_vfs*, int size, char* out) {
    return g_base->xRandomness(g_base, size, out);
}
int vfsSleep(sqlite3_vfs*, int microseconds) {
    return g_base->xSleep(g_base, microseconds);
}
int vfsCurrentTime(sqlite3_vfs*, double* out) {
    return g_base->xCurrentTime(g_base, out);
}
int vfsGetLastError(sqlite3_vfs*, int size, char* out) {
    return g_base->xGetLastError ? g_base->xGetLastError(g_base, size, out) : 0;
}
int vfsCurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
    return g_base->xCurrentTimeInt64(g_base, out);
}

} // namespace

const char* coalescingWalVfsName() {
    static const char* const name = [] {
        static sqlite3_vfs vfs{};
        g_base = sqlite3_vfs_find(nullptr);
        vfs.iVersion = 2; // xCurrentTimeInt64; the system-call overrides (version 3) stay the default's
        vfs.szOsFile = static_cast<int>(sizeof(File)) + g_base->szOsFile;
        vfs.mxPathname = g_base->mxPathname;
        vfs.zName = "cdc-coalescing-wal";
        vfs.xOpen = vfsOpen;
        vfs.xDelete = vfsDelete;
        vfs.xAccess = vfsAccess;
        vfs.xFullPathname = vfsFullPathname;
        vfs.xDlOpen = vfsDlOpen;
        vfs.xDlError = vfsDlError;
        vfs.xDlSym = vfsDlSym;
        vfs.xDlClose = vfsDlClose;
        vfs.xRandomness = vfsRandomness;
        vfs.xSleep = vfsSleep;
        vfs.xCurrentTime = vfsCurrentTime;
        vfs.xGetLastError = vfsGetLastError;
        vfs.xCurrentTimeInt64 = vfsCurrentTimeInt64;
        sqlite3_vfs_register(&vfs, 0);
        return vfs.zName;
    }();
    return name;
}

} // namespace cdc::storage
