# autoplay-inject: taps for sudoku-autoplay, injected through the hidden InputManager.
#
# Run on the phone from the adb shell (the shell user holds INJECT_EVENTS):
#   CLASSPATH=/data/local/tmp/autoplay-inject.dex app_process / org.autoplay.inject.Main
#
# Protocol (see ../../../../README.md):
#   stdout, first line: "autoplay-inject <VERSION> sdk=<SDK_INT>" once ready, or
#                       "fatal <ExceptionClass>: <message>" and exit status 1.
#   stdin: 16-byte records  kind:u8 0 0 0 seq:u32le x:i32le y:i32le
#          kind 0 ping, 1 tap (down+up), 2 down, 3 up, 4 move.
#   stdout, one line a record, in order: "ok <seq>" | "err <seq> <reason>".
#   EOF on a record boundary: exit status 0.
#
# Equivalent Java, for reading (this file is the source; there is no Java version):
#   setup(): cls = Class.forName("android.hardware.input.InputManagerGlobal")   // Android 14+
#                  or, if that class is absent, Class.forName("android.hardware.input.InputManager");
#            manager = cls.getDeclaredMethod("getInstance").invoke(null);
#            injectMethod = manager.getClass().getMethod("injectInputEvent", InputEvent.class, int.class);
#   send():  ev = MotionEvent.obtain(downTime, eventTime, action, x, y, 0); ev.setSource(0x1002);
#            injectMethod.invoke(manager, ev, 0 /* INJECT_INPUT_EVENT_MODE_ASYNC */); ev.recycle();

.class public final Lorg/autoplay/inject/Main;
.super Ljava/lang/Object;
.source "Main.smali"


# The protocol / injector version printed in the hello line. Bump it here, and only here.
.field public static final VERSION:I = 0x1

# android.view.InputDevice.SOURCE_TOUCHSCREEN
.field public static final SOURCE_TOUCHSCREEN:I = 0x1002

# android.hardware.input.InputManager.INJECT_INPUT_EVENT_MODE_ASYNC
.field public static final MODE_ASYNC:I = 0x0

# InputManagerGlobal (Android 14+) or InputManager instance, and its injectInputEvent(InputEvent, int).
.field private static manager:Ljava/lang/Object;

.field private static injectMethod:Ljava/lang/reflect/Method;

# downTime of the last DOWN (0 before the first one), for the MOVE and UP events that follow it.
.field private static downTime:J

# Buffered stdout; flushed whenever no more input is waiting.
.field private static out:Ljava/io/OutputStream;


.method private constructor <init>()V
    .locals 0
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method


.method public static main([Ljava/lang/String;)V
    .locals 3

    # out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out))
    new-instance v0, Ljava/io/FileOutputStream;
    sget-object v1, Ljava/io/FileDescriptor;->out:Ljava/io/FileDescriptor;
    invoke-direct {v0, v1}, Ljava/io/FileOutputStream;-><init>(Ljava/io/FileDescriptor;)V
    new-instance v1, Ljava/io/BufferedOutputStream;
    invoke-direct {v1, v0}, Ljava/io/BufferedOutputStream;-><init>(Ljava/io/OutputStream;)V
    sput-object v1, Lorg/autoplay/inject/Main;->out:Ljava/io/OutputStream;

    :try_setup_start
    invoke-static {}, Lorg/autoplay/inject/Main;->setup()V
    :try_setup_end
    .catch Ljava/lang/Throwable; {:try_setup_start .. :try_setup_end} :setup_failed

    # "autoplay-inject " + VERSION + " sdk=" + Build.VERSION.SDK_INT
    new-instance v0, Ljava/lang/StringBuilder;
    const-string v1, "autoplay-inject "
    invoke-direct {v0, v1}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    sget v1, Lorg/autoplay/inject/Main;->VERSION:I
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    const-string v1, " sdk="
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    sget v1, Landroid/os/Build$VERSION;->SDK_INT:I
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    invoke-static {v0}, Lorg/autoplay/inject/Main;->writeLine(Ljava/lang/String;)V
    invoke-static {}, Lorg/autoplay/inject/Main;->flush()V

    invoke-static {}, Lorg/autoplay/inject/Main;->loop()I
    move-result v0
    invoke-static {}, Lorg/autoplay/inject/Main;->flush()V
    invoke-static {v0}, Ljava/lang/System;->exit(I)V
    return-void

    :setup_failed
    move-exception v0
    new-instance v1, Ljava/lang/StringBuilder;
    const-string v2, "fatal "
    invoke-direct {v1, v2}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-static {v0}, Lorg/autoplay/inject/Main;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v1}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v1
    invoke-static {v1}, Lorg/autoplay/inject/Main;->writeLine(Ljava/lang/String;)V
    invoke-static {}, Lorg/autoplay/inject/Main;->flush()V
    const/4 v0, 0x1
    invoke-static {v0}, Ljava/lang/System;->exit(I)V
    return-void
.end method


# Finds the input manager singleton and its injectInputEvent(InputEvent, int) method; throws on failure.
.method private static setup()V
    .locals 6

    :try_global_start
    const-string v0, "android.hardware.input.InputManagerGlobal"
    invoke-static {v0}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v0
    :try_global_end
    .catch Ljava/lang/ClassNotFoundException; {:try_global_start .. :try_global_end} :no_global

    # v0 = the class; v1 = v0.getDeclaredMethod("getInstance").invoke(null)
    :have_class
    const-string v1, "getInstance"
    const/4 v2, 0x0
    new-array v2, v2, [Ljava/lang/Class;
    invoke-virtual {v0, v1, v2}, Ljava/lang/Class;->getDeclaredMethod(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;
    move-result-object v1
    const/4 v2, 0x0
    const/4 v3, 0x0
    new-array v3, v3, [Ljava/lang/Object;
    invoke-virtual {v1, v2, v3}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v1
    if-nez v1, :have_instance

    # throw new NullPointerException(cls.getName() + ".getInstance() returned null")
    new-instance v2, Ljava/lang/StringBuilder;
    invoke-direct {v2}, Ljava/lang/StringBuilder;-><init>()V
    invoke-virtual {v0}, Ljava/lang/Class;->getName()Ljava/lang/String;
    move-result-object v3
    invoke-virtual {v2, v3}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    const-string v3, ".getInstance() returned null"
    invoke-virtual {v2, v3}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v2}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v2
    new-instance v3, Ljava/lang/NullPointerException;
    invoke-direct {v3, v2}, Ljava/lang/NullPointerException;-><init>(Ljava/lang/String;)V
    throw v3

    :have_instance
    sput-object v1, Lorg/autoplay/inject/Main;->manager:Ljava/lang/Object;

    # injectMethod = manager.getClass().getMethod("injectInputEvent", InputEvent.class, int.class)
    invoke-virtual {v1}, Ljava/lang/Object;->getClass()Ljava/lang/Class;
    move-result-object v1
    const-string v2, "injectInputEvent"
    const/4 v3, 0x2
    new-array v3, v3, [Ljava/lang/Class;
    const-class v4, Landroid/view/InputEvent;
    const/4 v5, 0x0
    aput-object v4, v3, v5
    sget-object v4, Ljava/lang/Integer;->TYPE:Ljava/lang/Class;
    const/4 v5, 0x1
    aput-object v4, v3, v5
    invoke-virtual {v1, v2, v3}, Ljava/lang/Class;->getMethod(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;
    move-result-object v1
    sput-object v1, Lorg/autoplay/inject/Main;->injectMethod:Ljava/lang/reflect/Method;
    return-void

    # Before Android 14 (and its previews): InputManager.getInstance()
    :no_global
    const-string v0, "android.hardware.input.InputManager"
    invoke-static {v0}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v0
    goto :have_class
.end method


# Reads and handles records until EOF; returns the exit status (0 at EOF on a record boundary).
.method private static loop()I
    .locals 8

    sget-object v0, Ljava/lang/System;->in:Ljava/io/InputStream;
    const/16 v1, 0x10
    new-array v1, v1, [B

    :next_record
    const/4 v2, 0x0

    # read fully: v2 = bytes of the record read so far
    :fill
    const/16 v3, 0x10
    if-ge v2, v3, :full
    sub-int/2addr v3, v2
    invoke-virtual {v0, v1, v2, v3}, Ljava/io/InputStream;->read([BII)I
    move-result v3
    if-ltz v3, :eof
    add-int/2addr v2, v3
    goto :fill

    :eof
    if-nez v2, :truncated
    const/4 v0, 0x0
    return v0

    # "fatal java.io.EOFException: truncated record (<n> of 16 bytes)", exit status 1
    :truncated
    new-instance v3, Ljava/lang/StringBuilder;
    const-string v4, "fatal java.io.EOFException: truncated record ("
    invoke-direct {v3, v4}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-virtual {v3, v2}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    const-string v4, " of 16 bytes)"
    invoke-virtual {v3, v4}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v3}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v3
    invoke-static {v3}, Lorg/autoplay/inject/Main;->writeLine(Ljava/lang/String;)V
    const/4 v0, 0x1
    return v0

    :full
    # v2 = kind (u8), v3 = seq, v4 = x, v5 = y
    const/4 v2, 0x0
    aget-byte v2, v1, v2
    and-int/lit16 v2, v2, 0xff
    const/4 v3, 0x4
    invoke-static {v1, v3}, Lorg/autoplay/inject/Main;->le32([BI)I
    move-result v3
    const/16 v4, 0x8
    invoke-static {v1, v4}, Lorg/autoplay/inject/Main;->le32([BI)I
    move-result v4
    const/16 v5, 0xc
    invoke-static {v1, v5}, Lorg/autoplay/inject/Main;->le32([BI)I
    move-result v5

    # v2 = null when done, else the reason
    invoke-static {v2, v4, v5}, Lorg/autoplay/inject/Main;->handle(III)Ljava/lang/String;
    move-result-object v2

    # v3 = Long.toString(seq & 0xffffffffL), seq is unsigned
    int-to-long v4, v3
    const-wide v6, 0xffffffffL
    and-long/2addr v4, v6
    invoke-static {v4, v5}, Ljava/lang/Long;->toString(J)Ljava/lang/String;
    move-result-object v3

    new-instance v4, Ljava/lang/StringBuilder;
    invoke-direct {v4}, Ljava/lang/StringBuilder;-><init>()V
    if-nez v2, :is_err
    const-string v5, "ok "
    invoke-virtual {v4, v5}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v4, v3}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    goto :emit

    :is_err
    const-string v5, "err "
    invoke-virtual {v4, v5}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v4, v3}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    const-string v5, " "
    invoke-virtual {v4, v5}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v4, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    :emit
    invoke-virtual {v4}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v4
    invoke-static {v4}, Lorg/autoplay/inject/Main;->writeLine(Ljava/lang/String;)V

    # Hold acks back only while more input is already waiting (an available() failure counts as none).
    :try_available_start
    invoke-virtual {v0}, Ljava/io/InputStream;->available()I
    move-result v2
    :try_available_end
    .catch Ljava/io/IOException; {:try_available_start .. :try_available_end} :flush_now
    if-gtz v2, :next_record

    :flush_now
    invoke-static {}, Lorg/autoplay/inject/Main;->flush()V
    goto :next_record
.end method


# Performs one record; returns null when every event of it was injected, else the reason for "err".
.method private static handle(III)Ljava/lang/String;
    .locals 5
    # p0 = kind, p1 = x, p2 = y; v0 = x, v1 = y (float); v2:v3 = now; v4 = action

    int-to-float v0, p1
    int-to-float v1, p2
    invoke-static {}, Landroid/os/SystemClock;->uptimeMillis()J
    move-result-wide v2

    packed-switch p0, :kinds

    # "bad kind <k>"
    new-instance v0, Ljava/lang/StringBuilder;
    const-string v1, "bad kind "
    invoke-direct {v0, v1}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-virtual {v0, p0}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    return-object v0

    :ping
    const/4 v0, 0x0
    return-object v0

    :tap
    sput-wide v2, Lorg/autoplay/inject/Main;->downTime:J
    const/4 v4, 0x0
    invoke-static {v4, v2, v3, v0, v1}, Lorg/autoplay/inject/Main;->send(IJFF)Ljava/lang/String;
    move-result-object v4
    if-eqz v4, :tap_up
    return-object v4
    :tap_up
    invoke-static {}, Landroid/os/SystemClock;->uptimeMillis()J
    move-result-wide v2
    const/4 v4, 0x1
    goto :send

    :down
    sput-wide v2, Lorg/autoplay/inject/Main;->downTime:J
    const/4 v4, 0x0
    goto :send

    :up
    const/4 v4, 0x1
    goto :send

    :move
    const/4 v4, 0x2

    :send
    invoke-static {v4, v2, v3, v0, v1}, Lorg/autoplay/inject/Main;->send(IJFF)Ljava/lang/String;
    move-result-object v4
    return-object v4

    :kinds
    .packed-switch 0x0
        :ping
        :tap
        :down
        :up
        :move
    .end packed-switch
.end method


# Injects one touchscreen MotionEvent (ACTION_DOWN 0 / ACTION_UP 1 / ACTION_MOVE 2) at (x, y).
# Returns null if injectInputEvent returned true, "not injected" if false, else "<Class>: <message>".
.method private static send(IJFF)Ljava/lang/String;
    .locals 11
    # p0 = action, p1:p2 = eventTime, p3 = x, p4 = y
    # v3..v10 = the arguments of MotionEvent.obtain(long, long, int, float, float, int)

    sget-wide v3, Lorg/autoplay/inject/Main;->downTime:J
    const-wide/16 v0, 0x0
    cmp-long v0, v3, v0
    if-nez v0, :have_down_time
    move-wide v3, p1
    :have_down_time
    move-wide v5, p1
    move v7, p0
    move v8, p3
    move v9, p4
    const/4 v10, 0x0

    # v2 = the event, null until obtained
    const/4 v2, 0x0

    :try_start
    invoke-static/range {v3 .. v10}, Landroid/view/MotionEvent;->obtain(JJIFFI)Landroid/view/MotionEvent;
    move-result-object v2
    sget v0, Lorg/autoplay/inject/Main;->SOURCE_TOUCHSCREEN:I
    invoke-virtual {v2, v0}, Landroid/view/MotionEvent;->setSource(I)V

    # injectMethod.invoke(manager, new Object[] { event, Integer.valueOf(MODE_ASYNC) })
    const/4 v3, 0x2
    new-array v3, v3, [Ljava/lang/Object;
    const/4 v4, 0x0
    aput-object v2, v3, v4
    sget v4, Lorg/autoplay/inject/Main;->MODE_ASYNC:I
    invoke-static {v4}, Ljava/lang/Integer;->valueOf(I)Ljava/lang/Integer;
    move-result-object v4
    const/4 v5, 0x1
    aput-object v4, v3, v5
    sget-object v0, Lorg/autoplay/inject/Main;->injectMethod:Ljava/lang/reflect/Method;
    sget-object v1, Lorg/autoplay/inject/Main;->manager:Ljava/lang/Object;
    invoke-virtual {v0, v1, v3}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v0
    check-cast v0, Ljava/lang/Boolean;
    invoke-virtual {v0}, Ljava/lang/Boolean;->booleanValue()Z
    move-result v0
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :failed

    invoke-virtual {v2}, Landroid/view/MotionEvent;->recycle()V
    if-nez v0, :injected
    const-string v0, "not injected"
    return-object v0

    :injected
    const/4 v0, 0x0
    return-object v0

    :failed
    move-exception v0
    if-eqz v2, :not_obtained
    invoke-virtual {v2}, Landroid/view/MotionEvent;->recycle()V
    :not_obtained
    invoke-static {v0}, Lorg/autoplay/inject/Main;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# "<Class>: <message>" of t, or of its cause when t is an InvocationTargetException; one line.
.method private static describe(Ljava/lang/Throwable;)Ljava/lang/String;
    .locals 4

    instance-of v0, p0, Ljava/lang/reflect/InvocationTargetException;
    if-eqz v0, :unwrapped
    invoke-virtual {p0}, Ljava/lang/Throwable;->getCause()Ljava/lang/Throwable;
    move-result-object v0
    if-eqz v0, :unwrapped
    move-object p0, v0

    :unwrapped
    new-instance v0, Ljava/lang/StringBuilder;
    invoke-direct {v0}, Ljava/lang/StringBuilder;-><init>()V
    invoke-virtual {p0}, Ljava/lang/Object;->getClass()Ljava/lang/Class;
    move-result-object v1
    invoke-virtual {v1}, Ljava/lang/Class;->getName()Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    const-string v1, ": "
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {p0}, Ljava/lang/Throwable;->getMessage()Ljava/lang/String;
    move-result-object v1
    invoke-static {v1}, Ljava/lang/String;->valueOf(Ljava/lang/Object;)Ljava/lang/String;
    move-result-object v1
    # keep the protocol one line a reply: '\n' and '\r' become ' '
    const/16 v2, 0xa
    const/16 v3, 0x20
    invoke-virtual {v1, v2, v3}, Ljava/lang/String;->replace(CC)Ljava/lang/String;
    move-result-object v1
    const/16 v2, 0xd
    invoke-virtual {v1, v2, v3}, Ljava/lang/String;->replace(CC)Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# Little-endian 32-bit integer at b[off .. off+3].
.method private static le32([BI)I
    .locals 2

    aget-byte v0, p0, p1
    and-int/lit16 v0, v0, 0xff
    add-int/lit8 v1, p1, 0x1
    aget-byte v1, p0, v1
    and-int/lit16 v1, v1, 0xff
    shl-int/lit8 v1, v1, 0x8
    or-int/2addr v0, v1
    add-int/lit8 v1, p1, 0x2
    aget-byte v1, p0, v1
    and-int/lit16 v1, v1, 0xff
    shl-int/lit8 v1, v1, 0x10
    or-int/2addr v0, v1
    add-int/lit8 v1, p1, 0x3
    aget-byte v1, p0, v1
    shl-int/lit8 v1, v1, 0x18
    or-int/2addr v0, v1
    return v0
.end method


# out.write(line as UTF-8); out.write('\n')
.method private static writeLine(Ljava/lang/String;)V
    .locals 2

    sget-object v0, Lorg/autoplay/inject/Main;->out:Ljava/io/OutputStream;
    const-string v1, "UTF-8"
    invoke-virtual {p0, v1}, Ljava/lang/String;->getBytes(Ljava/lang/String;)[B
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/io/OutputStream;->write([B)V
    const/16 v1, 0xa
    invoke-virtual {v0, v1}, Ljava/io/OutputStream;->write(I)V
    return-void
.end method


.method private static flush()V
    .locals 1

    sget-object v0, Lorg/autoplay/inject/Main;->out:Ljava/io/OutputStream;
    invoke-virtual {v0}, Ljava/io/OutputStream;->flush()V
    return-void
.end method
