-- AlterTable
ALTER TABLE "oidcConsent" ADD COLUMN     "lastUsedAt" TIMESTAMP(3);

