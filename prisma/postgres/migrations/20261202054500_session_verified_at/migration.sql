-- AlterTable
ALTER TABLE "session" ADD COLUMN     "verifiedAt" TIMESTAMP(3);
