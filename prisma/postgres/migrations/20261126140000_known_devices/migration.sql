-- CreateTable
CREATE TABLE "knownDevice" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "deviceHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "knownDevice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "knownDevice_lastSeenAt_idx" ON "knownDevice"("lastSeenAt");

-- CreateIndex
CREATE UNIQUE INDEX "knownDevice_userId_deviceHash_key" ON "knownDevice"("userId", "deviceHash");

-- AddForeignKey
ALTER TABLE "knownDevice" ADD CONSTRAINT "knownDevice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

