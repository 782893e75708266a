-- AlterTable
ALTER TABLE "session" ADD COLUMN "verifiedAt" DATETIME;
