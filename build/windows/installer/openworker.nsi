; OpenWorker Desktop installer (NSIS 3.08+). Built by scripts/build-windows.sh:
;
;   makensis -DDEFINES=defines.nsh -DEXE=openworker.exe -DEXAMPLES=examples/coworkers \
;            -DICON=app.ico -DWEBVIEW2_SETUP=MicrosoftEdgeWebview2Setup.exe \
;            -DOUTFILE=OpenWorker-Setup.exe [-DSIGN_CMD="..."] openworker.nsi
;
; DEFINES (written by build/windows/winbuild from wails.json) gives
; PRODUCT_NAME, COMPANY_NAME, COPYRIGHT, COMMENTS, VERSION, VERSION4, EXE_NAME.
;
; Per-user install without admin rights: %LOCALAPPDATA%\Programs\OpenWorker,
; shortcuts and the uninstall entry under the current user (HKCU). The
; uninstaller keeps the journal and settings (%APPDATA%\OpenWorker, which is
; Go's os.UserConfigDir()\OpenWorker) unless "Also remove my journal and
; settings" is ticked. Silent: /S (install) and uninstall.exe /S (keeps data;
; uninstall.exe /S /REMOVEDATA removes it).
;
; File associations (per user, HKCU\Software\Classes; docs/install.md): .mcpb
; and .dxt open with "openworker.exe" "%1" (prog ids OpenWorker.mcpb and
; OpenWorker.dxt, also listed under OpenWithProgids). The uninstaller removes
; the prog ids, our OpenWithProgids entry, and the extension's default only
; when it is still ours, so another program's association survives.

; A 64-bit installer (PE32+): the app is x64-only, and a 32-bit installer
; cannot run where there is no 32-bit support (Wine without wine32, the
; build machine's kernel: docs/ci.md#under-wine). Debian's nsis ships the
; amd64-unicode stubs and plugins; the NSIS releases for Windows do not,
; so there (the test-windows workflow's native build) the installer falls
; back to 32-bit with a warning. The shipped installer is cross-built on
; Linux and checked to be PE32+ (scripts/check-windows-installer.sh).
!if /FileExists "${NSISDIR}/Stubs/lzma_solid-amd64-unicode"
    Target amd64-unicode
!else
    !warning "this NSIS has no amd64-unicode stubs: building a 32-bit (x86-unicode) installer"
    Unicode true
!endif
ManifestDPIAware true
SetCompressor /SOLID lzma

!ifdef DEFINES & EXE & EXAMPLES & ICON & WEBVIEW2_SETUP & OUTFILE
!else
    !error "pass -DDEFINES= -DEXE= -DEXAMPLES= -DICON= -DWEBVIEW2_SETUP= -DOUTFILE= (see scripts/build-windows.sh)"
!endif
!include "${DEFINES}"

!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\OpenWorker"
!define USER_DATA "$APPDATA\OpenWorker"

!ifdef SIGN_CMD
    ; Sign the uninstaller before it is packed (the installer is signed after).
    !uninstfinalize '${SIGN_CMD} "%1"' = 0
!endif

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "x64.nsh"
!include "WinVer.nsh"
!include "FileFunc.nsh"
!include "webview2.nsh"
!include "running.nsh"
!insertmacro openworker.runningcheck ""
!insertmacro openworker.runningcheck "un."

; openworker.associate EXT DESCRIPTION: open .EXT files with the app (per user).
!macro openworker.associate EXT DESCRIPTION
    WriteRegStr HKCU "Software\Classes\OpenWorker.${EXT}" "" "${DESCRIPTION}"
    WriteRegStr HKCU "Software\Classes\OpenWorker.${EXT}\DefaultIcon" "" "$INSTDIR\${EXE_NAME},0"
    WriteRegStr HKCU "Software\Classes\OpenWorker.${EXT}\shell\open\command" "" '"$INSTDIR\${EXE_NAME}" "%1"'
    WriteRegStr HKCU "Software\Classes\.${EXT}" "" "OpenWorker.${EXT}"
    WriteRegStr HKCU "Software\Classes\.${EXT}\OpenWithProgids" "OpenWorker.${EXT}" ""
!macroend

; openworker.unassociate EXT: undo openworker.associate, keeping what others wrote.
!macro openworker.unassociate EXT
    DeleteRegKey HKCU "Software\Classes\OpenWorker.${EXT}"
    DeleteRegValue HKCU "Software\Classes\.${EXT}\OpenWithProgids" "OpenWorker.${EXT}"
    DeleteRegKey /ifempty HKCU "Software\Classes\.${EXT}\OpenWithProgids"
    ReadRegStr $0 HKCU "Software\Classes\.${EXT}" ""
    ${If} $0 == "OpenWorker.${EXT}"
        DeleteRegValue HKCU "Software\Classes\.${EXT}" ""
    ${EndIf}
    DeleteRegKey /ifempty HKCU "Software\Classes\.${EXT}"
!macroend

; SHCNE_ASSOCCHANGED: Explorer rereads the associations.
!macro openworker.assocchanged
    System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend

Name "${PRODUCT_NAME}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\OpenWorker"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
ShowInstDetails show
ShowUninstDetails show
BrandingText "${PRODUCT_NAME} ${VERSION}"

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey "ProductName" "${PRODUCT_NAME}"
VIAddVersionKey "CompanyName" "${COMPANY_NAME}"
VIAddVersionKey "LegalCopyright" "${COPYRIGHT}"
VIAddVersionKey "FileDescription" "${PRODUCT_NAME} Setup"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "Comments" "${COMMENTS}"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_COMPONENTSPAGE_NODESC
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE_NAME}"
!define MUI_FINISHPAGE_RUN_TEXT "Start ${PRODUCT_NAME}"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

Function .onInit
    ${IfNot} ${AtLeastWin10}
    ${OrIfNot} ${IsNativeAMD64}
        IfSilent +2
        MessageBox MB_OK|MB_ICONSTOP "${PRODUCT_NAME} needs 64-bit (x64) Windows 10 or later."
        SetErrorLevel 64
        Quit
    ${EndIf}
FunctionEnd

Section "${PRODUCT_NAME} (required)" SecApp
    SectionIn RO
    SetShellVarContext current
    !insertmacro openworker.webview2runtime
    ; An upgrade over a running app: close it first (running.nsh).
    Call openworker.closerunning

    SetOutPath "$INSTDIR"
    File "/oname=${EXE_NAME}" "${EXE}"

    ; The bundled example coworkers are ours: replace them on upgrade.
    RMDir /r "$INSTDIR\examples\coworkers"
    SetOutPath "$INSTDIR\examples\coworkers"
    File /r "${EXAMPLES}/*"
    SetOutPath "$INSTDIR"

    CreateShortcut "$SMPROGRAMS\${PRODUCT_NAME}.lnk" "$INSTDIR\${EXE_NAME}"

    ; Extensions (MCP bundles) open in the app (docs/app.md#opening-an-extension).
    !insertmacro openworker.associate "mcpb" "MCP bundle (OpenWorker extension)"
    !insertmacro openworker.associate "dxt" "Desktop extension (OpenWorker extension)"
    !insertmacro openworker.assocchanged

    WriteUninstaller "$INSTDIR\uninstall.exe"
    WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${PRODUCT_NAME}"
    WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
    WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "${COMPANY_NAME}"
    WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${EXE_NAME}"
    WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
    WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
    WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
    WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
    WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
    ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
    IntFmt $0 "0x%08X" $0
    WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"
SectionEnd

Section "Desktop shortcut" SecDesktop
    SetShellVarContext current
    CreateShortcut "$DESKTOP\${PRODUCT_NAME}.lnk" "$INSTDIR\${EXE_NAME}"
SectionEnd

Section "un.${PRODUCT_NAME} (program files)" UnSecApp
    SectionIn RO
    SetShellVarContext current
    Call un.openworker.closerunning
    Delete "$SMPROGRAMS\${PRODUCT_NAME}.lnk"
    Delete "$DESKTOP\${PRODUCT_NAME}.lnk"
    !insertmacro openworker.unassociate "mcpb"
    !insertmacro openworker.unassociate "dxt"
    !insertmacro openworker.assocchanged
    Delete "$INSTDIR\${EXE_NAME}"
    RMDir /r "$INSTDIR\examples"
    Delete "$INSTDIR\uninstall.exe"
    ; Only if empty: never delete files we did not put there.
    RMDir "$INSTDIR"
    DeleteRegKey HKCU "${UNINST_KEY}"
    ; The app's toast identity (platform/windows AppID, written at the first
    ; notification by go-toast's SetAppData).
    DeleteRegKey HKCU "Software\Classes\AppUserModelId\OpenWorker"
SectionEnd

; Unticked by default, and never selected by a silent uninstall (/S).
Section /o "un.Also remove my journal and settings" UnSecData
    SetShellVarContext current
    RMDir /r "${USER_DATA}"
    ; The WebView2 profile of the window (Wails' default data path).
    RMDir /r "$APPDATA\${EXE_NAME}"
SectionEnd

; `/S /START`: the app's own update (docs/update.md#apply) starts the app
; again once it is installed; a plain /S does not.
Function .onInstSuccess
    ${GetParameters} $R0
    ClearErrors
    ${GetOptions} $R0 "/START" $R1
    ${IfNot} ${Errors}
        Exec '"$INSTDIR\${EXE_NAME}"'
    ${EndIf}
FunctionEnd

; `uninstall.exe /S /REMOVEDATA` also removes the journal and settings: the
; silent way to tick "Also remove my journal and settings" (docs/install.md).
Function un.onInit
    ${un.GetParameters} $R0
    ClearErrors
    ${un.GetOptions} $R0 "/REMOVEDATA" $R1
    ${IfNot} ${Errors}
        SectionSetFlags ${UnSecData} ${SF_SELECTED}
    ${EndIf}
FunctionEnd
