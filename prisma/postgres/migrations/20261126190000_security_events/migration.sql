-- CreateTable
CREATE TABLE "securityEvent" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "device" TEXT,
    "sessionId" TEXT,
    "actorUserId" TEXT,
    "details" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "securityEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "securityEvent_userId_createdAt_id_idx" ON "securityEvent"("userId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "securityEvent_createdAt_idx" ON "securityEvent"("createdAt");

-- AddForeignKey
ALTER TABLE "securityEvent" ADD CONSTRAINT "securityEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

