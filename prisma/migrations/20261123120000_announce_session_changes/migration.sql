-- Nothing to change on SQLite: there, every process learns of another connection's commits from the file
-- itself (PRAGMA data_version; docs/decisions/024-session-cache-and-invalidation.md). The PostgreSQL migration
-- of the same name adds the triggers that announce session, user and organization changes.
SELECT 1;
