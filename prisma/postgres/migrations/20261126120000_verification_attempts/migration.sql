-- AlterTable
ALTER TABLE "verification" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0;

