-- AlterTable
ALTER TABLE "oidcConsent" ADD COLUMN "lastUsedAt" DATETIME;

