#pragma once
/// A VFS for databases on RAM-backed filesystems: it gathers a WAL file's writes in memory and hands them
/// to the file in large pieces.
///
/// SQLite appends each WAL frame with two pwrite calls (its 24-byte header, then the page). On tmpfs the
/// bytes cost a memory copy and the system calls cost the rest: a 10,000-event SCD2 step wrote ~14,000
/// frames, and its commit took longer than the change feed and the B-tree inserts together. Gathered, a
/// commit writes about 47 frames per call (a 96 KiB buffer).
///
/// The contract that keeps this safe: other connections read committed frames from the file, so every
/// gathered byte must be in the file before a commit is published in the WAL index. SQLite syncs the WAL
/// before publishing a commit when `PRAGMA synchronous` is FULL or EXTRA, and this VFS writes its buffer
/// out on that sync (and before any read, size, truncate, unlock, file control or close of the file). So a
/// connection on this VFS runs at FULL — which costs nothing on tmpfs — and refuses to be set lower. A failed
/// write surfaces as the sync's error, so the commit fails and rolls back as any failed write does.
///
/// Every other file (the database, its rollback journal, temporary files) passes straight through to the
/// default VFS, which also keeps POSIX locks shared with connections opened without this VFS.

namespace cdc::storage {

/// The VFS's registered name, for sqlite3_open_v2(); registers it on first use (thread-safe). Not made
/// the default: files on disk keep the default VFS and synchronous=NORMAL.
const char* coalescingWalVfsName();

} // namespace cdc::storage
