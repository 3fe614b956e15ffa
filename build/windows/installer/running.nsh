; A running openworker.exe locks its file: the installer (on upgrade) and the
; uninstaller close it first (docs/install.md#upgrades). Interactive: asks,
; then closes it gracefully (taskkill without /F sends WM_CLOSE: the app's
; own close question runs); still running, Retry/Cancel. Silent (/S): waits
; up to 10 s for it to end, then closes it (graceful, then forced) and
; fails with exit code 5 when the file stays locked.
;
; The test for "running" is Windows' own: a running image cannot be opened
; for writing (sharing violation), whoever started it.

!macro openworker.runningcheck UN
Function ${UN}openworker.locked
    ; Pushes 1 when $INSTDIR\${EXE_NAME} exists and cannot be opened for writing.
    ${If} ${FileExists} "$INSTDIR\${EXE_NAME}"
        ClearErrors
        FileOpen $R9 "$INSTDIR\${EXE_NAME}" a
        ${If} ${Errors}
            Push 1
            Return
        ${EndIf}
        FileClose $R9
    ${EndIf}
    Push 0
FunctionEnd

Function ${UN}openworker.waitunlocked
    ; Waits up to $R8 half-seconds for the exe to be free; pushes 1 if still locked.
    StrCpy $R7 0
    ${Do}
        Call ${UN}openworker.locked
        Pop $R6
        ${If} $R6 == 0
            Push 0
            Return
        ${EndIf}
        IntOp $R7 $R7 + 1
        ${If} $R7 > $R8
            Push 1
            Return
        ${EndIf}
        Sleep 500
    ${Loop}
FunctionEnd

Function ${UN}openworker.closerunning
    Call ${UN}openworker.locked
    Pop $R6
    ${If} $R6 == 0
        Return
    ${EndIf}
    DetailPrint "${PRODUCT_NAME} is running ($INSTDIR\${EXE_NAME})."
    ${If} ${Silent}
        StrCpy $R8 20
        Call ${UN}openworker.waitunlocked
        Pop $R6
        ${If} $R6 == 0
            Return
        ${EndIf}
    ${Else}
        MessageBox MB_OKCANCEL|MB_ICONEXCLAMATION "${PRODUCT_NAME} is running. Setup will close it to replace or remove its files (if a turn is running, the app asks first).$\r$\n$\r$\nClose it now?" IDOK close
        SetErrorLevel 5
        Quit
    ${EndIf}
    close:
    DetailPrint "Closing ${PRODUCT_NAME}"
    nsExec::Exec '"$SYSDIR\taskkill.exe" /IM ${EXE_NAME}'
    Pop $R6
    StrCpy $R8 30
    Call ${UN}openworker.waitunlocked
    Pop $R6
    ${If} $R6 == 0
        Return
    ${EndIf}
    ${If} ${Silent}
        DetailPrint "${PRODUCT_NAME} did not close: ending it"
        nsExec::Exec '"$SYSDIR\taskkill.exe" /F /IM ${EXE_NAME}'
        Pop $R6
        StrCpy $R8 30
        Call ${UN}openworker.waitunlocked
        Pop $R6
        ${If} $R6 == 0
            Return
        ${EndIf}
        SetErrorLevel 5
        Quit
    ${EndIf}
    MessageBox MB_RETRYCANCEL|MB_ICONEXCLAMATION "${PRODUCT_NAME} is still running. Close it (answer its question if it asks one), then click Retry." IDRETRY close
    SetErrorLevel 5
    Quit
FunctionEnd
!macroend
