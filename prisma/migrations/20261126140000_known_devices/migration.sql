-- CreateTable
CREATE TABLE "knownDevice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "deviceHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "knownDevice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "knownDevice_lastSeenAt_idx" ON "knownDevice"("lastSeenAt");

-- CreateIndex
CREATE UNIQUE INDEX "knownDevice_userId_deviceHash_key" ON "knownDevice"("userId", "deviceHash");

