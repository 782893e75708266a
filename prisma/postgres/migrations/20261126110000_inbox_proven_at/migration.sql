-- AlterTable
ALTER TABLE "user" ADD COLUMN     "inboxProvenAt" TIMESTAMP(3);


-- Every account whose address is verified now has proven an inbox; when is not recorded, so its last update
-- stands for it (ADR 028). An account whose current address is unverified cannot be told apart from one that
-- never proved any: it counts as never proven.
UPDATE "user" SET "inboxProvenAt" = "updatedAt" WHERE "emailVerified" = true;
