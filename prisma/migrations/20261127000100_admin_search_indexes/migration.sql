-- The admin search indexes are PostgreSQL's (text_pattern_ops, pg_trgm; docs/decisions/052-admin-search-indexes.md).
-- SQLite, a one-machine database, searches its user table as it is. Nothing to do here; the folder keeps the two
-- migration lists alike (tests/unit/schema-drift.test.ts).
SELECT 1;
