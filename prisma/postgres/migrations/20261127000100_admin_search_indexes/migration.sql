-- The admin console's user search (issue 30; docs/decisions/052-admin-search-indexes.md), written by hand: Prisma's
-- schema cannot say operator classes or GIN. Not in prisma/schema.prisma, so the schema-drift test (columns and
-- unique indexes) does not see them and a schema diff never drops them.

-- An e-mail address by its beginning (`LIKE 'x%'`): the unique index on "email" cannot serve LIKE unless the
-- database's collation is "C"; text_pattern_ops can, whatever the collation.
CREATE INDEX "user_email_pattern_idx" ON "user" ("email" text_pattern_ops);

-- Anywhere in an address or a name (`LIKE '%x%'`, and ILIKE, which name searches use): trigram indexes. pg_trgm
-- ships with PostgreSQL and is a trusted extension (a database owner may create it), but a managed server may
-- not offer it: then the migration goes on without it, and those searches read the table as before.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): admin searches inside addresses and names will read the whole user table', SQLERRM;
END $$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX "user_email_trgm_idx" ON "user" USING gin ("email" gin_trgm_ops);
    CREATE INDEX "user_name_trgm_idx" ON "user" USING gin ("name" gin_trgm_ops);
  END IF;
END $$;
