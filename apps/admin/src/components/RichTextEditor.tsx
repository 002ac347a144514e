import { BoldOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Space, Tooltip } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface RichTextEditorProps {
  /** HTML; Form.Item passes it in and takes it back through onChange. */
  value?: string;
  onChange?: (html: string) => void;
  id?: string;
  /** Accessible name of the editing area. */
  label: string;
}

/**
 * Rich text for news and announcements (tiptap's StarterKit: headings, lists, quotes, bold, italic,
 * links). What it writes is only a draft: the server sanitises on save and the form then shows that.
 */
export function RichTextEditor({ value, onChange, id, label }: RichTextEditorProps) {
  const { t } = useTranslation('content');
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } })],
    content: value ?? '',
    onUpdate: ({ editor: current }) => onChange?.(current.isEmpty ? '' : current.getHTML()),
    editorProps: {
      attributes: {
        id: id ?? '',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        'data-testid': 'rich-text',
        style: 'min-height: 240px; padding: 8px 12px; outline: none;',
      },
    },
  });

  // A value from outside (another article opened, the sanitised result of a save) replaces the draft.
  useEffect(() => {
    if (!editor) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if ((value ?? '') !== current) editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);

  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bullet: current.isActive('bulletList'),
      ordered: current.isActive('orderedList'),
      quote: current.isActive('blockquote'),
      link: current.isActive('link'),
    }),
  });

  const tools: { key: keyof typeof active; text: ReactNode; run: () => void }[] = [
    { key: 'bold', text: <BoldOutlined />, run: () => editor.chain().focus().toggleBold().run() },
    { key: 'italic', text: <ItalicOutlined />, run: () => editor.chain().focus().toggleItalic().run() },
    { key: 'h2', text: 'H2', run: () => editor.chain().focus().toggleHeading({ level: 2 }).run() },
    { key: 'h3', text: 'H3', run: () => editor.chain().focus().toggleHeading({ level: 3 }).run() },
    { key: 'bullet', text: <UnorderedListOutlined />, run: () => editor.chain().focus().toggleBulletList().run() },
    { key: 'ordered', text: <OrderedListOutlined />, run: () => editor.chain().focus().toggleOrderedList().run() },
    { key: 'quote', text: '❝', run: () => editor.chain().focus().toggleBlockquote().run() },
    {
      key: 'link',
      text: <LinkOutlined />,
      run: () => {
        if (editor.isActive('link')) {
          editor.chain().focus().unsetLink().run();
          return;
        }
        const href = window.prompt(t('link_prompt'))?.trim();
        if (href && /^https?:\/\//i.test(href)) editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
      },
    },
  ];

  return (
    <div style={{ border: '1px solid #d9d9d9', borderRadius: 6 }}>
      <Space
        wrap
        size={4}
        style={{ padding: 4, borderBottom: '1px solid #f0f0f0', width: '100%' }}
        role="toolbar"
        aria-label={t('toolbar')}
      >
        {tools.map((tool) => (
          <Tooltip key={tool.key} title={t(`tool_${tool.key}`)}>
            <Button
              size="small"
              type={active[tool.key] ? 'primary' : 'text'}
              aria-label={t(`tool_${tool.key}`)}
              aria-pressed={active[tool.key]}
              onClick={tool.run}
            >
              {tool.text}
            </Button>
          </Tooltip>
        ))}
      </Space>
      <EditorContent editor={editor} />
    </div>
  );
}
