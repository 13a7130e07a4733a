# autoplay-inject: taps for sudoku-autoplay, injected through the hidden InputManager.
#
# Run on the phone from the adb shell (the shell user holds INJECT_EVENTS):
#   CLASSPATH=/data/local/tmp/autoplay-inject.dex app_process / org.autoplay.inject.Main
#
# Protocol (see ../../../../README.md):
#   stdout, first line: "autoplay-inject <VERSION> sdk=<SDK_INT> dex=<40 hex digits>" once ready
#                       (dex = the SHA-1 signature in the header of the file named by $CLASSPATH,
#                       or "unknown"), or "fatal <ExceptionClass>: <message>" and exit status 1.
#   stdin: 16-byte records  kind:u8 0 0 0 seq:u32le x:i32le y:i32le
#          kind 0 ping, 1 tap (down+up), 2 down, 3 up, 4 move, 5 check (a refusal shows).
#   stdout, one line a record, in order: "ok <seq>" | "err <seq> <reason>".
#   EOF on a record boundary: exit status 0. Anything that escapes (a record cut short, an I/O
#   error on stdin or stdout): "fatal <ExceptionClass>: <message>" if stdout still takes it, and
#   exit status 1.
#
# Equivalent Java, for reading (this file is the source; there is no Java version):
#   main():  try { System.exit(run()); } catch (Throwable t) { fatal(t); System.exit(1); }
#   run():   setup(); writeLine(hello()); flush(); status = loop(); flush(); return status;
#   setup(): cls = Class.forName("android.hardware.input.InputManagerGlobal")   // Android 14+
#                  or, if that class is absent, Class.forName("android.hardware.input.InputManager");
#            manager = cls.getDeclaredMethod("getInstance").invoke(null);
#            injectMethod = manager.getClass().getMethod("injectInputEvent", InputEvent.class, int.class);
#   send():  as InputShellCommand.injectMotionEvent ("input tap") and scrcpy's Controller build them:
#            props[0] = new PointerProperties(); props[0].toolType = TOOL_TYPE_FINGER;
#            coords[0] = new PointerCoords(); x, y; pressure = action == ACTION_UP ? 0 : 1; size = 1;
#            ev = MotionEvent.obtain(downTime, eventTime, action, 1, props, coords, 0, 0, 1f, 1f,
#                                    0, 0, SOURCE_TOUCHSCREEN, 0);
#            inject(ev, INJECT_INPUT_EVENT_MODE_ASYNC); ev.recycle();
#   check(): inject(new KeyEvent(now, now, ACTION_DOWN|ACTION_UP, KEYCODE_UNKNOWN, 0, 0,
#                                KeyCharacterMap.VIRTUAL_KEYBOARD, 0, 0, SOURCE_KEYBOARD),
#                   INJECT_INPUT_EVENT_MODE_WAIT_FOR_RESULT);
#            before Android 13, also IPowerManager.isInteractive() (else "screen off").

.class public final Lorg/autoplay/inject/Main;
.super Ljava/lang/Object;
.source "Main.smali"


# The protocol / injector version printed in the hello line. Bump it here, and only here.
.field public static final VERSION:I = 0x2

# android.view.InputDevice.SOURCE_TOUCHSCREEN and SOURCE_KEYBOARD
.field public static final SOURCE_TOUCHSCREEN:I = 0x1002

.field public static final SOURCE_KEYBOARD:I = 0x101

# android.view.MotionEvent.TOOL_TYPE_FINGER
.field public static final TOOL_TYPE_FINGER:I = 0x1

# android.hardware.input.InputManager.INJECT_INPUT_EVENT_MODE_ASYNC and _WAIT_FOR_RESULT
.field public static final MODE_ASYNC:I = 0x0

.field public static final MODE_WAIT_FOR_RESULT:I = 0x1

# From Android 13 (API 33) InputManagerService checks INJECT_EVENTS before queueing anything, so a
# refused check key throws whatever the screen's state; before, the dispatcher checks it only once
# a window is chosen, and a key dropped while the screen is off reports success.
.field public static final SDK_CHECKED_BEFORE_QUEUEING:I = 0x21

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
    .locals 2

    # out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out))
    new-instance v0, Ljava/io/FileOutputStream;
    sget-object v1, Ljava/io/FileDescriptor;->out:Ljava/io/FileDescriptor;
    invoke-direct {v0, v1}, Ljava/io/FileOutputStream;-><init>(Ljava/io/FileDescriptor;)V
    new-instance v1, Ljava/io/BufferedOutputStream;
    invoke-direct {v1, v0}, Ljava/io/BufferedOutputStream;-><init>(Ljava/io/OutputStream;)V
    sput-object v1, Lorg/autoplay/inject/Main;->out:Ljava/io/OutputStream;

    :try_start
    invoke-static {}, Lorg/autoplay/inject/Main;->run()I
    move-result v0
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :failed
    invoke-static {v0}, Ljava/lang/System;->exit(I)V
    return-void

    :failed
    move-exception v0
    invoke-static {v0}, Lorg/autoplay/inject/Main;->fatal(Ljava/lang/Throwable;)V
    const/4 v0, 0x1
    invoke-static {v0}, Ljava/lang/System;->exit(I)V
    return-void
.end method


# Sets up, says hello, serves records until EOF; returns 0. Throws on a failed setup, a record cut
# short and any I/O error.
.method private static run()I
    .locals 1

    invoke-static {}, Lorg/autoplay/inject/Main;->setup()V
    invoke-static {}, Lorg/autoplay/inject/Main;->hello()Ljava/lang/String;
    move-result-object v0
    invoke-static {v0}, Lorg/autoplay/inject/Main;->writeLine(Ljava/lang/String;)V
    invoke-static {}, Lorg/autoplay/inject/Main;->flush()V
    invoke-static {}, Lorg/autoplay/inject/Main;->loop()I
    move-result v0
    invoke-static {}, Lorg/autoplay/inject/Main;->flush()V
    return v0
.end method


# "fatal <Class>: <message>" of t, if stdout still takes it (an I/O error on stdout stays silent).
.method private static fatal(Ljava/lang/Throwable;)V
    .locals 2

    :try_start
    new-instance v0, Ljava/lang/StringBuilder;
    const-string v1, "fatal "
    invoke-direct {v0, v1}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-static {p0}, Lorg/autoplay/inject/Main;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    invoke-static {v0}, Lorg/autoplay/inject/Main;->writeLine(Ljava/lang/String;)V
    invoke-static {}, Lorg/autoplay/inject/Main;->flush()V
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :unsaid
    :unsaid
    return-void
.end method


# "autoplay-inject " + VERSION + " sdk=" + Build.VERSION.SDK_INT + " dex=" + dexSignature()
.method private static hello()Ljava/lang/String;
    .locals 2

    new-instance v0, Ljava/lang/StringBuilder;
    const-string v1, "autoplay-inject "
    invoke-direct {v0, v1}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    sget v1, Lorg/autoplay/inject/Main;->VERSION:I
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    const-string v1, " sdk="
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    sget v1, Landroid/os/Build$VERSION;->SDK_INT:I
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    const-string v1, " dex="
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-static {}, Lorg/autoplay/inject/Main;->dexSignature()Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# The SHA-1 signature (header bytes 12..31, lowercase hex) of the dex named by $CLASSPATH, the file
# app_process loaded this class from; "unknown" if it cannot be read.
.method private static dexSignature()Ljava/lang/String;
    .locals 6

    :try_start
    const-string v0, "CLASSPATH"
    invoke-static {v0}, Ljava/lang/System;->getenv(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v0
    new-instance v1, Ljava/io/DataInputStream;
    new-instance v2, Ljava/io/FileInputStream;
    invoke-direct {v2, v0}, Ljava/io/FileInputStream;-><init>(Ljava/lang/String;)V
    invoke-direct {v1, v2}, Ljava/io/DataInputStream;-><init>(Ljava/io/InputStream;)V
    const/16 v0, 0x20
    new-array v0, v0, [B
    invoke-virtual {v1, v0}, Ljava/io/DataInputStream;->readFully([B)V
    invoke-virtual {v1}, Ljava/io/DataInputStream;->close()V

    # v1 = the hex digits, v2 = index, v3 = byte
    new-instance v1, Ljava/lang/StringBuilder;
    invoke-direct {v1}, Ljava/lang/StringBuilder;-><init>()V
    const/16 v2, 0xc
    :next_byte
    const/16 v3, 0x20
    if-ge v2, v3, :done
    aget-byte v3, v0, v2
    and-int/lit16 v3, v3, 0xff
    const/16 v5, 0x10
    shr-int/lit8 v4, v3, 0x4
    invoke-static {v4, v5}, Ljava/lang/Character;->forDigit(II)C
    move-result v4
    invoke-virtual {v1, v4}, Ljava/lang/StringBuilder;->append(C)Ljava/lang/StringBuilder;
    and-int/lit8 v4, v3, 0xf
    invoke-static {v4, v5}, Ljava/lang/Character;->forDigit(II)C
    move-result v4
    invoke-virtual {v1, v4}, Ljava/lang/StringBuilder;->append(C)Ljava/lang/StringBuilder;
    add-int/lit8 v2, v2, 0x1
    goto :next_byte
    :done
    invoke-virtual {v1}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :unreadable
    return-object v0

    :unreadable
    const-string v0, "unknown"
    return-object v0
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


# Reads and handles records until EOF on a record boundary (returns 0); throws
# EOFException("truncated record (<n> of 16 bytes)") for a record cut short.
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

    :truncated
    new-instance v3, Ljava/lang/StringBuilder;
    const-string v4, "truncated record ("
    invoke-direct {v3, v4}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-virtual {v3, v2}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    const-string v4, " of 16 bytes)"
    invoke-virtual {v3, v4}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v3}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v3
    new-instance v4, Ljava/io/EOFException;
    invoke-direct {v4, v3}, Ljava/io/EOFException;-><init>(Ljava/lang/String;)V
    throw v4

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

    :check
    invoke-static {}, Lorg/autoplay/inject/Main;->check()Ljava/lang/String;
    move-result-object v0
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
        :check
    .end packed-switch
.end method


# Injects one touchscreen MotionEvent (ACTION_DOWN 0 / ACTION_UP 1 / ACTION_MOVE 2) at (x, y),
# asynchronously: one finger, pressure 1 (0 on the up), size 1, device 0.
# Returns null if injectInputEvent returned true, else the reason (see inject).
.method private static send(IJFF)Ljava/lang/String;
    .locals 18
    # p0 = action, p1:p2 = eventTime, p3 = x, p4 = y
    # v2..v17 = the arguments of MotionEvent.obtain(long, long, int, int, PointerProperties[],
    #           PointerCoords[], int, int, float, float, int, int, int, int)

    move/from16 v0, p0
    move-wide/from16 v4, p1

    # v1 = the event, null until obtained
    const/4 v1, 0x0

    :try_start
    # v8 = new PointerProperties[] { finger }
    const/4 v8, 0x1
    new-array v8, v8, [Landroid/view/MotionEvent$PointerProperties;
    new-instance v9, Landroid/view/MotionEvent$PointerProperties;
    invoke-direct {v9}, Landroid/view/MotionEvent$PointerProperties;-><init>()V
    sget v10, Lorg/autoplay/inject/Main;->TOOL_TYPE_FINGER:I
    iput v10, v9, Landroid/view/MotionEvent$PointerProperties;->toolType:I
    const/4 v10, 0x0
    aput-object v9, v8, v10

    # v9 = new PointerCoords[] { x, y, pressure, size 1 }
    const/4 v9, 0x1
    new-array v9, v9, [Landroid/view/MotionEvent$PointerCoords;
    new-instance v10, Landroid/view/MotionEvent$PointerCoords;
    invoke-direct {v10}, Landroid/view/MotionEvent$PointerCoords;-><init>()V
    move/from16 v11, p3
    iput v11, v10, Landroid/view/MotionEvent$PointerCoords;->x:F
    move/from16 v11, p4
    iput v11, v10, Landroid/view/MotionEvent$PointerCoords;->y:F
    const/high16 v11, 0x3f800000    # 1.0f
    iput v11, v10, Landroid/view/MotionEvent$PointerCoords;->size:F
    const/4 v12, 0x1
    if-ne v0, v12, :pressed
    const/4 v11, 0x0                # 0.0f on the up
    :pressed
    iput v11, v10, Landroid/view/MotionEvent$PointerCoords;->pressure:F
    const/4 v11, 0x0
    aput-object v10, v9, v11

    # v2:v3 = downTime (the last down's, else this event's own time)
    sget-wide v2, Lorg/autoplay/inject/Main;->downTime:J
    const-wide/16 v6, 0x0
    cmp-long v6, v2, v6
    if-nez v6, :have_down_time
    move-wide v2, v4
    :have_down_time
    move v6, v0
    const/4 v7, 0x1
    const/4 v10, 0x0
    const/4 v11, 0x0
    const/high16 v12, 0x3f800000    # xPrecision 1.0f
    const/high16 v13, 0x3f800000    # yPrecision 1.0f
    const/4 v14, 0x0
    const/4 v15, 0x0
    sget v16, Lorg/autoplay/inject/Main;->SOURCE_TOUCHSCREEN:I
    const/16 v17, 0x0
    invoke-static/range {v2 .. v17}, Landroid/view/MotionEvent;->obtain(JJII[Landroid/view/MotionEvent$PointerProperties;[Landroid/view/MotionEvent$PointerCoords;IIFFIIII)Landroid/view/MotionEvent;
    move-result-object v1
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :not_obtained

    sget v2, Lorg/autoplay/inject/Main;->MODE_ASYNC:I
    invoke-static {v1, v2}, Lorg/autoplay/inject/Main;->inject(Landroid/view/InputEvent;I)Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v1}, Landroid/view/MotionEvent;->recycle()V
    return-object v2

    :not_obtained
    move-exception v2
    invoke-static {v2}, Lorg/autoplay/inject/Main;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v2
    return-object v2
.end method


# The check record: a KEYCODE_UNKNOWN down and up, as "input keyevent 0" builds them, injected in
# INJECT_INPUT_EVENT_MODE_WAIT_FOR_RESULT, so the dispatcher's verdict on permission comes back
# (a refusal throws a SecurityException). Before Android 13 a key dropped because the screen is
# off also reports success, so the screen must be on: else "screen off".
.method private static check()Ljava/lang/String;
    .locals 2

    const/4 v0, 0x0
    invoke-static {v0}, Lorg/autoplay/inject/Main;->key(I)Ljava/lang/String;
    move-result-object v1
    if-eqz v1, :down_done
    return-object v1
    :down_done
    const/4 v0, 0x1
    invoke-static {v0}, Lorg/autoplay/inject/Main;->key(I)Ljava/lang/String;
    move-result-object v1
    if-eqz v1, :up_done
    return-object v1
    :up_done
    sget v0, Landroid/os/Build$VERSION;->SDK_INT:I
    sget v1, Lorg/autoplay/inject/Main;->SDK_CHECKED_BEFORE_QUEUEING:I
    if-lt v0, v1, :ask_screen
    const/4 v0, 0x0
    return-object v0
    :ask_screen
    invoke-static {}, Lorg/autoplay/inject/Main;->screenOff()Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# Injects new KeyEvent(now, now, action, KEYCODE_UNKNOWN, 0, 0, VIRTUAL_KEYBOARD, 0, 0,
# SOURCE_KEYBOARD) in mode WAIT_FOR_RESULT; null, or the reason (see inject).
.method private static key(I)Ljava/lang/String;
    .locals 13
    # v0 = the event; v1..v12 = its constructor's arguments

    invoke-static {}, Landroid/os/SystemClock;->uptimeMillis()J
    move-result-wide v1
    move-wide v3, v1
    move v5, p0
    const/4 v6, 0x0
    const/4 v7, 0x0
    const/4 v8, 0x0
    const/4 v9, -0x1
    const/4 v10, 0x0
    const/4 v11, 0x0
    sget v12, Lorg/autoplay/inject/Main;->SOURCE_KEYBOARD:I

    :try_start
    new-instance v0, Landroid/view/KeyEvent;
    invoke-direct/range {v0 .. v12}, Landroid/view/KeyEvent;-><init>(JJIIIIIIII)V
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :not_built

    sget v1, Lorg/autoplay/inject/Main;->MODE_WAIT_FOR_RESULT:I
    invoke-static {v0, v1}, Lorg/autoplay/inject/Main;->inject(Landroid/view/InputEvent;I)Ljava/lang/String;
    move-result-object v0
    return-object v0

    :not_built
    move-exception v0
    invoke-static {v0}, Lorg/autoplay/inject/Main;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# null when the screen is interactive (IPowerManager.isInteractive(), through
# ServiceManager.getService("power") as scrcpy's wrappers/PowerManager does), "screen off" when it
# is not, else the reason the question failed.
.method private static screenOff()Ljava/lang/String;
    .locals 6

    :try_start
    # v0 = ServiceManager.getService("power")
    const-string v0, "android.os.ServiceManager"
    invoke-static {v0}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v0
    const-string v1, "getService"
    const/4 v2, 0x1
    new-array v2, v2, [Ljava/lang/Class;
    const-class v3, Ljava/lang/String;
    const/4 v4, 0x0
    aput-object v3, v2, v4
    invoke-virtual {v0, v1, v2}, Ljava/lang/Class;->getDeclaredMethod(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;
    move-result-object v0
    const/4 v1, 0x1
    new-array v1, v1, [Ljava/lang/Object;
    const-string v2, "power"
    aput-object v2, v1, v4
    const/4 v2, 0x0
    invoke-virtual {v0, v2, v1}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v0

    # v0 = IPowerManager.Stub.asInterface(v0)
    const-string v1, "android.os.IPowerManager$Stub"
    invoke-static {v1}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v1
    const-string v2, "asInterface"
    const/4 v3, 0x1
    new-array v3, v3, [Ljava/lang/Class;
    const-string v5, "android.os.IBinder"
    invoke-static {v5}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v5
    aput-object v5, v3, v4
    invoke-virtual {v1, v2, v3}, Ljava/lang/Class;->getMethod(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;
    move-result-object v1
    const/4 v2, 0x1
    new-array v2, v2, [Ljava/lang/Object;
    aput-object v0, v2, v4
    const/4 v3, 0x0
    invoke-virtual {v1, v3, v2}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v0

    # v1 = (Boolean) IPowerManager.class.getMethod("isInteractive").invoke(v0)
    const-string v1, "android.os.IPowerManager"
    invoke-static {v1}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v1
    const-string v2, "isInteractive"
    new-array v3, v4, [Ljava/lang/Class;
    invoke-virtual {v1, v2, v3}, Ljava/lang/Class;->getMethod(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;
    move-result-object v1
    new-array v2, v4, [Ljava/lang/Object;
    invoke-virtual {v1, v0, v2}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v1
    check-cast v1, Ljava/lang/Boolean;
    invoke-virtual {v1}, Ljava/lang/Boolean;->booleanValue()Z
    move-result v1
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :failed

    if-eqz v1, :off
    const/4 v0, 0x0
    return-object v0
    :off
    const-string v0, "screen off"
    return-object v0

    :failed
    move-exception v0
    invoke-static {v0}, Lorg/autoplay/inject/Main;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# injectMethod.invoke(manager, event, mode): null if it returned true, "not injected" if false,
# else "<Class>: <message>" of what it threw.
.method private static inject(Landroid/view/InputEvent;I)Ljava/lang/String;
    .locals 4

    :try_start
    # injectMethod.invoke(manager, new Object[] { event, Integer.valueOf(mode) })
    const/4 v0, 0x2
    new-array v0, v0, [Ljava/lang/Object;
    const/4 v1, 0x0
    aput-object p0, v0, v1
    invoke-static {p1}, Ljava/lang/Integer;->valueOf(I)Ljava/lang/Integer;
    move-result-object v1
    const/4 v2, 0x1
    aput-object v1, v0, v2
    sget-object v1, Lorg/autoplay/inject/Main;->injectMethod:Ljava/lang/reflect/Method;
    sget-object v2, Lorg/autoplay/inject/Main;->manager:Ljava/lang/Object;
    invoke-virtual {v1, v2, v0}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v0
    check-cast v0, Ljava/lang/Boolean;
    invoke-virtual {v0}, Ljava/lang/Boolean;->booleanValue()Z
    move-result v0
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :failed

    if-nez v0, :injected
    const-string v0, "not injected"
    return-object v0

    :injected
    const/4 v0, 0x0
    return-object v0

    :failed
    move-exception v0
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
