-- AlterTable
ALTER TABLE "session" ADD COLUMN     "rememberMe" BOOLEAN NOT NULL DEFAULT true;

