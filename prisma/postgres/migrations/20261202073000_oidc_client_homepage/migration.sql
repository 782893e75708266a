-- AlterTable
ALTER TABLE "oidcClient" ADD COLUMN     "homepageUrl" TEXT;
